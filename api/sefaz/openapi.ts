import { clientScopes, errors, json, jsonBody } from '../openapi/helpers';

const OUTSIDE_PROD = 'Outside production only (404 not_found there).';
/** domain/nfe-key.ts's shape: digits, and the issuer's alphanumeric CNPJ inside. */
const STATUS = { type: 'string', enum: ['authorized', 'cancelled', 'denied', 'unknown', 'too_old'] } as const;
const ISSUER_CERTIFICATE = { type: 'string', enum: ['delegated', 'not_delegated'] } as const;
const NFE_KEY = { type: 'string', minLength: 44, maxLength: 44, pattern: '^\\d{6}[0-9A-Z]{12}\\d{26}$' };

export const sefazSchemas = {
  SandboxNfe: {
    type: 'object',
    required: ['nfe_key', 'status', 'payer_event', 'issuer_certificate'],
    properties: {
      nfe_key: NFE_KEY,
      status: STATUS,
      issuer_certificate: ISSUER_CERTIFICATE,
      payer_event: { type: ['string', 'null'], enum: ['confirmed', 'aware', 'unknown_operation', 'not_performed', null] },
    },
  },
};

export const sefazPaths = {
  '/v1/sandbox/nfe/{nfe_key}': {
    post: {
      operationId: 'setSandboxNfe', tags: ['operations'], summary: 'Sandbox: what SEFAZ answers for an NF-e key from now on',
      description: `${OUTSIDE_PROD} The sandbox SEFAZ answers the key's status consult (NFeConsultaProtocolo4) and its distribution (NFeDistribuicaoDFe, the payer's manifestação) `
        + 'as set here, from now on: `authorized` (cStat 100), `cancelled` (101, with the cancellation event 110111), `denied` (110), `unknown` (217, not in SEFAZ\'s database), '
        + '`too_old` (526, beyond the consult\'s age limit: the product\'s `nfe_beyond_consult_age` decides); '
        + '`payer_event` the payer\'s latest manifestação: `confirmed` (210200), `aware` (ciência, 210210), `unknown_operation` (desconhecimento, 210220), '
        + '`not_performed` (operação não realizada, 210240), or null (none); `issuer_certificate` `not_delegated` makes the distribution answer 593 '
        + '(the certificate presented is not the issuer\'s), as SEFAZ answers when the issuer has not delegated its certificate: the payer\'s events are then not available '
        + '(default `delegated`: in the sandbox every issuer counts as having delegated). A key never set is `authorized` with no payer event. '
        + '422 for a malformed key (validation_error; NFE_KEY_CHECK_DIGIT_MISMATCH) or value.',
      security: clientScopes('operation:create'),
      parameters: [{ name: 'nfe_key', in: 'path', required: true, description: 'The NF-e access key, 44 characters', schema: NFE_KEY }],
      requestBody: jsonBody({
        type: 'object',
        required: ['status'],
        additionalProperties: false,
        properties: {
          status: STATUS,
          payer_event: { type: ['string', 'null'], enum: ['confirmed', 'aware', 'unknown_operation', 'not_performed', null], default: null },
          issuer_certificate: { ...ISSUER_CERTIFICATE, default: 'delegated' },
        },
      }),
      responses: { 200: json('What the sandbox SEFAZ answers for the key from now on', { $ref: '#/components/schemas/SandboxNfe' }), ...errors(401, 403, 404, 422, 429, 502) },
    },
  },
  '/v1/sandbox/sefaz/outage': {
    post: {
      operationId: 'startSandboxSefazOutage', tags: ['operations'], summary: 'Sandbox: SEFAZ paused for a while',
      description: `${OUTSIDE_PROD} Both sandbox SEFAZ services answer cStat 109 (service paused) for \`seconds\` from now, for every key: `
        + 'operations are neither refused nor paid until it ends. 0 ends an outage now.',
      security: clientScopes('operation:create'),
      requestBody: jsonBody({ type: 'object', required: ['seconds'], additionalProperties: false, properties: { seconds: { type: 'integer', minimum: 0, maximum: 86_400 } } }),
      responses: {
        200: json('When the outage ends', { type: 'object', required: ['until'], properties: { until: { type: 'string', format: 'date-time' } } }),
        ...errors(401, 403, 404, 422, 429, 502),
      },
    },
  },
};
