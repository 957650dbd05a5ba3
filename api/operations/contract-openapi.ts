import { clientScopes, errors, idempotencyKey, json, jsonBody, pathId, ref } from '../openapi/helpers';

export const contractSchemas = {
  ContractSigners: {
    type: 'object',
    required: ['operation_id', 'contract_id', 'doc_token', 'document_status', 'signers'],
    properties: {
      operation_id: { type: 'string', format: 'uuid' },
      contract_id: { type: 'string', format: 'uuid' },
      doc_token: { type: 'string', description: 'Opaque, for support correlation; does not open the signing page' },
      document_status: { type: 'string', description: 'Provider text, passed through; may change without notice' },
      signers: {
        type: 'array', minItems: 1,
        items: {
          type: 'object', required: ['name', 'status', 'signed', 'sign_url'],
          properties: {
            name: { type: 'string' },
            status: { type: 'string', description: 'Provider text, passed through; decide with `signed`' },
            signed: { type: 'boolean' },
            sign_url: { type: ['string', 'null'], description: 'A credential: whoever holds it signs. Null once signed.' },
          },
        },
      },
    },
  },
  ContractDispatch: {
    type: 'object',
    required: ['operation_id', 'contract_id', 'doc_token', 'lifecycle_status', 'is_first_contract', 'titles_count', 'signers_count', 'signers_notified', 'embedded', 'signers'],
    properties: {
      operation_id: { type: 'string', format: 'uuid' },
      contract_id: { type: 'string', format: 'uuid' },
      doc_token: { type: 'string' },
      lifecycle_status: { const: 'CONTRACT_SENT' },
      is_first_contract: { type: 'boolean', description: 'Full contract (first assignment) or addendum' },
      titles_count: { type: 'integer' },
      signers_count: { type: 'integer' },
      signers_notified: { type: ['integer', 'null'], description: 'Null in embedded mode' },
      embedded: { type: 'boolean' },
      signers: {
        type: 'array',
        items: { type: 'object', required: ['name', 'status', 'sign_url'], properties: { name: { type: 'string' }, status: { type: 'string' }, sign_url: { type: ['string', 'null'] } } },
      },
    },
  },
};

export const contractPaths = {
  '/v1/operations/{id}/contract/signers': {
    get: {
      operationId: 'getContractSigners', tags: ['contracts'], summary: 'Signers of the contract in force, read live from the e-sign provider',
      description: 'While dispatch is pending: 404 contract_not_found, then 409 contract_not_dispatched (both transient; poll with backoff '
        + '5 s doubling to 30 s, up to 5 minutes). 502 esign_unavailable when the provider fails. Never 200 with an empty list.',
      security: clientScopes('contract:read'),
      parameters: [pathId('id')],
      responses: { 200: json('Signers', ref('ContractSigners')), ...errors(401, 403, 404, 409, 422, 429, 502) },
    },
  },
  '/v1/operations/{id}/contract/send-for-signature': {
    post: {
      operationId: 'sendContractForSignature', tags: ['contracts'], summary: 'Dispatch (or re-dispatch after CONTRACT_ERROR) the contract',
      description: 'Allowed in PRE_APPROVED, APPROVED_DIRECT, CONTRACT_ERROR. 409 contract_already_exists means done (read the signers); '
        + '409 operation_not_in_signable_state means not yet. 502 esign_*_failed: the operation is CONTRACT_ERROR and re-dispatchable. '
        + 'While the automatic dispatch is still under way (it retries a provider outage for about two minutes) the answer is 409 contract_already_exists at once: '
        + 'read the signers route, and send again only if the operation ends in CONTRACT_ERROR.',
      security: clientScopes('contract:send'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', properties: { embedded: { type: 'boolean', description: 'Overrides the operation preference for this dispatch only' } } }, false),
      responses: { 201: json('Contract at the provider', ref('ContractDispatch')), ...errors(401, 403, 404, 409, 422, 429, 502, 503) },
    },
  },
  '/v1/operations/{id}/cancel': {
    post: {
      operationId: 'cancelOperation', tags: ['operations'], summary: 'Cancel before the money moves',
      description: 'Allowed in WAITING_APPROVAL, APPROVED_DIRECT, PRE_APPROVED, CONTRACT_ERROR, CONTRACT_SENT and DISBURSEMENT_FAILED; '
        + 'voids the document at the provider, cancels the titles (releasing exposure) and returns consumed stock items to IN_STOCK. '
        + 'Later states: 409 operation_cannot_be_cancelled. A cancel that races a move is answered at once either way: when the check that finds '
        + 'every signer signed is already under way, the signature wins (409 operation_cannot_be_cancelled, and the operation goes on to PAID); '
        + 'a cancel while another request (a disbursement retry, an approval being written) is under way is 409 too.',
      security: clientScopes('operation:create'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', properties: { reason: { type: ['string', 'null'], maxLength: 500 } } }, false),
      responses: { 200: json('The cancelled operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
};
