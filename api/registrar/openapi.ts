import { clientScopes, DOCUMENT_MAX_LENGTH, errors, json, jsonBody } from '../openapi/helpers';

const OUTSIDE_PROD = 'Outside production only (404 not_found there).';
/** domain/nfe-key.ts's shape: digits, and the issuer's alphanumeric CNPJ inside. */
const NFE_KEY = { type: 'string', minLength: 44, maxLength: 44, pattern: '^\\d{6}[0-9A-Z]{12}\\d{26}$' };
/**
 * Punctuation accepted, as everywhere a document is sent (domain/documents.ts), around exactly the 14
 * characters the handler reads: twelve letters or digits, then two check digits (which only it verifies).
 */
const CNPJ_INPUT = {
  type: 'string', minLength: 14, maxLength: DOCUMENT_MAX_LENGTH, pattern: '^[./\\- ]*(?:[0-9A-Za-z][./\\- ]*){12}(?:[0-9][./\\- ]*){2}$',
  description: 'A CNPJ (14 characters; punctuation accepted)',
};

export const registrarPaths = {
  '/v1/sandbox/registrar/transfers': {
    post: {
      operationId: 'transferSandboxDuplicatas', tags: ['operations'], summary: 'Sandbox: another financier acquires an NF-e\'s duplicatas now',
      description: `${OUTSIDE_PROD} The sandbox escriturador records, now, the transfer of every duplicata of \`nfe_key\` to \`holder_document\`, `
        + 'as if a competitor had got there first: a later transfer asked by the seller is refused (`already_transferred`). Duplicatas not issued yet are issued first '
        + '(one installment `001` of 1000.00, due in 30 days). 422 for a malformed key (validation_error; NFE_KEY_CHECK_DIGIT_MISMATCH...) or CNPJ.',
      security: clientScopes('operation:create'),
      requestBody: jsonBody({
        type: 'object', required: ['nfe_key', 'holder_document'], additionalProperties: false,
        properties: { nfe_key: NFE_KEY, holder_document: CNPJ_INPUT },
      }),
      responses: {
        200: json('The key\'s duplicatas with their holder now', {
          type: 'object', required: ['nfe_key', 'duplicatas'],
          properties: {
            nfe_key: NFE_KEY,
            duplicatas: {
              type: 'array', maxItems: 999,
              items: {
                type: 'object', required: ['duplicata_id', 'installment', 'holder_document'],
                properties: {
                  duplicata_id: { type: 'string', maxLength: 100, pattern: '^[\\x21-\\x7E]+$', description: 'The escriturador\'s id of the duplicata' },
                  installment: { type: 'string', maxLength: 60, pattern: '^[\\x21-\\x7E]+$', description: 'The NF-e\'s nDup' },
                  holder_document: { type: 'string', maxLength: 14, pattern: '^[0-9A-Z]{11,14}$', description: 'The holder\'s CPF or CNPJ as stored, without punctuation' },
                },
              },
            },
          },
        }),
        ...errors(401, 403, 404, 422, 429, 502),
      },
    },
  },
  '/v1/sandbox/registrar/outage': {
    post: {
      operationId: 'startSandboxRegistrarOutage', tags: ['operations'], summary: 'Sandbox: the escriturador unreachable for a while',
      description: `${OUTSIDE_PROD} The sandbox escriturador drops every connection unanswered for \`seconds\` from now. 0 ends an outage now.`,
      security: clientScopes('operation:create'),
      requestBody: jsonBody({ type: 'object', required: ['seconds'], additionalProperties: false, properties: { seconds: { type: 'integer', minimum: 0, maximum: 86_400 } } }),
      responses: {
        200: json('When the outage ends', { type: 'object', required: ['until'], properties: { until: { type: 'string', format: 'date-time' } } }),
        ...errors(401, 403, 404, 422, 429, 502),
      },
    },
  },
};
