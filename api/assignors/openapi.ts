import { checkedByHandler } from '../openapi/handler-checked';
import { clientScopes, documentByType, DOCUMENT_MAX_LENGTH, errors, json, jsonBody, listOf, nullableText, pagination, pathId, ref, idempotencyKey, text } from '../openapi/helpers';

export const assignorSchemas = {
  AssignorNfeCertificate: {
    type: 'object',
    description: 'What is shown of an assignor\'s delegated certificate: never the file or its password',
    required: ['assignor_id', 'subject', 'serial', 'not_after', 'uploaded_at'],
    properties: {
      assignor_id: { type: 'string', format: 'uuid' },
      subject: { type: 'string', maxLength: 1024, pattern: '^[^\\r\\n]+$', description: 'The certificate\'s subject, `C=BR, O=ICP-Brasil, ..., CN=<name>:<CNPJ>`' },
      serial: { type: 'string', maxLength: 128, pattern: '^[0-9A-F]+$', description: 'Its serial number, hexadecimal' },
      not_after: { type: 'string', format: 'date-time', description: 'When it expires: SEFAZ refuses it then, so store its successor before' },
      uploaded_at: { type: 'string', format: 'date-time' },
    },
  },
  Address: {
    type: 'object',
    properties: {
      street: text(200), number: text(20), complement: text(120), district: text(120),
      city: text(120), state: text(60), zip_code: text(20), country: text(60),
    },
    additionalProperties: false,
  },
  Bank: {
    type: 'object',
    description: 'Where the assignor is paid. Required, and `{}` is accepted: the disbursement is then a PIX to the assignor\'s own document as key '
      + '(its CNPJ, else its CPF). A bank account is used only when `code`, `agency` and `account` are all non-empty and `use_document_pix` is not true; '
      + 'an incomplete account is not refused, it silently falls back to PIX on the document (the operation\'s `disbursement_method` says which was chosen). '
      + 'It is read only for an assignor not yet paid anywhere: one registered earlier keeps its account.',
    properties: {
      use_document_pix: { type: ['boolean', 'null'], description: 'true: PIX to the assignor\'s document even when a complete account is given; false or null: the account when complete' },
      code: nullableText(10),
      agency: nullableText(20),
      account: nullableText(40),
      type: { ...nullableText(10), description: 'CC (default), SA, CP; any other value is treated as CC' },
    },
  },
  AssignorFields: checkedByHandler({
    type: 'object',
    required: ['name', 'type', 'email'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 200, examples: ['Comercial Exemplo Ltda'] },
      type: { type: 'string', enum: ['F', 'J'] },
      cpf: { ...nullableText(DOCUMENT_MAX_LENGTH), description: 'Required for type F; punctuation accepted', examples: ['529.982.247-25'] },
      cnpj: { ...nullableText(DOCUMENT_MAX_LENGTH), description: 'Required for type J; numeric or alphanumeric, punctuation accepted', examples: ['45.237.189/0001-79'] },
      email: { type: 'string', format: 'email', maxLength: 320, examples: ['finance@comercial.example'] },
      trade_name: { type: ['string', 'null'], maxLength: 200 },
      phone: { type: ['string', 'null'], maxLength: 40 },
      address: { anyOf: [ref('Address'), { type: 'null' }] },
    },
  }, documentByType),
  Assignor: {
    type: 'object',
    required: ['id', 'type', 'name', 'document', 'email', 'disbursement_method', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      type: { type: 'string', enum: ['F', 'J'] },
      name: { type: 'string' },
      trade_name: { type: ['string', 'null'] },
      document: { type: 'string' },
      cpf: { type: ['string', 'null'] },
      cnpj: { type: ['string', 'null'] },
      email: { type: 'string' },
      phone: { type: ['string', 'null'] },
      address: { type: ['object', 'null'] },
      disbursement_method: { type: ['string', 'null'], description: 'pix_document or bank_account; treat unknown values as unknown' },
      pix_key_document: { type: ['string', 'null'] },
      bank: { type: ['object', 'null'] },
      created_at: { type: 'string', format: 'date-time' },
      updated_at: { type: 'string', format: 'date-time' },
    },
  },
};

const CERTIFICATE_CODES = '422 `certificate_unreadable` (not a PKCS#12 that opens with this password: a wrong password, a damaged file, or the legacy RC2 encryption '
  + 'of old exports, which OpenSSL 3 no longer opens: export it again with AES), `certificate_not_assignors` (the subject\'s CN does not end in the assignor\'s CNPJ, '
  + 'its root of 8 characters being what SEFAZ matches, or its CPF), `certificate_expired`; each with `loc` at `pfx`. Nothing is stored on a refusal.';

export const assignorPaths = {
  '/v1/assignors': {
    post: {
      operationId: 'createAssignor', tags: ['assignors'], summary: 'Register an assignor (cedente) ahead of its first operation',
      description: 'Registers an assignor of the caller\'s originator so that later operations can name it. 409 assignor_already_exists when an assignor with the same document is already registered.',
      security: clientScopes('operation:create'),
      parameters: [idempotencyKey(false)],
      requestBody: jsonBody({ allOf: [ref('AssignorFields'), { type: 'object', properties: { bank: ref('Bank') } }] }),
      responses: { 201: json('Assignor registered', ref('Assignor')), ...errors(401, 403, 409, 422, 429) },
    },
    get: {
      operationId: 'listAssignors', tags: ['assignors'], summary: 'Assignors of the originator, newest first',
      description: 'Only the caller\'s originator\'s assignors, paginated with `limit` and `offset`.',
      security: clientScopes('operation:read'),
      parameters: pagination,
      responses: { 200: json('Page of assignors', listOf(ref('Assignor'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/assignors/{id}/nfe-certificate': {
    put: {
      operationId: 'putAssignorNfeCertificate', tags: ['assignors'], summary: 'Store the assignor\'s delegated A1 certificate for SEFAZ',
      description: 'The assignor\'s ICP-Brasil A1 certificate (PKCS#12, base64) and its password, with which the service asks SEFAZ\'s NFeDistribuicaoDFe for the payers\' '
        + 'manifestações on the NF-e it issued (SEFAZ shows them only to a party of the NF-e). Both are stored sealed and never returned; a new one replaces the old. '
        + 'Without one, SEFAZ will not show us the payer\'s events: an NF-e then passes on its status alone (the check\'s `payer_events` is `not_available`), '
        + 'or waits as for a missing confirmation under a product whose `payer_confirmation` is `required`. '
        + `${CERTIFICATE_CODES} 404 when the assignor is unknown or another originator's.`,
      security: clientScopes('operation:create'),
      parameters: [pathId('id')],
      requestBody: jsonBody({
        type: 'object', required: ['pfx', 'password'], additionalProperties: false,
        properties: {
          pfx: { type: 'string', contentEncoding: 'base64', minLength: 4, maxLength: 65_536, pattern: '^[A-Za-z0-9+/]+={0,2}$', description: 'The PKCS#12 file (.pfx, .p12), base64' },
          password: { type: 'string', minLength: 0, maxLength: 256, pattern: '^[^\\u0000]*$', description: 'The PKCS#12 file\'s password' },
        },
      }),
      responses: { 200: json('The certificate stored (metadata only)', ref('AssignorNfeCertificate')), ...errors(401, 403, 404, 422, 429) },
    },
    get: {
      operationId: 'getAssignorNfeCertificate', tags: ['assignors'], summary: 'The assignor\'s delegated certificate: metadata only',
      description: '404 `nfe_certificate_not_found` when the assignor stored none; 404 `assignor_not_found` when the assignor is unknown or another originator\'s.',
      security: clientScopes('operation:read'),
      parameters: [pathId('id')],
      responses: { 200: json('The certificate stored (metadata only)', ref('AssignorNfeCertificate')), ...errors(401, 403, 404, 422, 429) },
    },
    delete: {
      operationId: 'deleteAssignorNfeCertificate', tags: ['assignors'], summary: 'Remove the assignor\'s delegated certificate',
      description: 'From now on SEFAZ is asked without it. 404 `nfe_certificate_not_found` when there is none; 404 `assignor_not_found` as for the read.',
      security: clientScopes('operation:create'),
      parameters: [pathId('id')],
      responses: { 204: { description: 'Removed' }, ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/assignors/{id}': {
    get: {
      operationId: 'getAssignor', tags: ['assignors'], summary: 'One assignor',
      description: '404 when the id is unknown or belongs to another originator.',
      security: clientScopes('operation:read'),
      parameters: [pathId('id')],
      responses: { 200: json('The assignor', ref('Assignor')), ...errors(401, 403, 404, 422, 429) },
    },
  },
};
