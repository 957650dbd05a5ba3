import { checkedByHandler } from '../openapi/handler-checked';
import { clientScopes, documentByType, DOCUMENT_MAX_LENGTH, errors, json, jsonBody, listOf, nullableText, pagination, pathId, ref, idempotencyKey, text } from '../openapi/helpers';

export const assignorSchemas = {
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
