import { clientScopes, DOCUMENT_MAX_LENGTH, errors, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref, timestampInput, userSecurity } from '../openapi/helpers';

export const lifecycleSchemas = {
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
  ApprovalQueueItem: {
    type: 'object',
    required: ['id', 'display_number', 'lifecycle_status', 'originator_id', 'assignor_id', 'opr_requested_net_future_value', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' }, display_number: { type: 'string' }, lifecycle_status: ref('LifecycleStatus'),
      originator_id: { type: 'string', format: 'uuid' }, originator_name: { type: 'string' },
      assignor_id: { type: 'string', format: 'uuid' }, assignor_name: { type: 'string' }, assignor_document: { type: 'string' },
      opr_requested_net_future_value: ref('Money'), opr_net_present_liquid_value: ref('Money'),
      channel: { type: 'string', enum: ['direct', 'stock'] }, created_at: { type: 'string', format: 'date-time' },
      review_reason: {
        description: 'Why it waits whatever its amount, or null: receivable_assigned_elsewhere = an NF-e key of it is held by another originator (not named)',
        anyOf: [{ type: 'null' }, {
          type: 'object', required: ['code', 'message', 'external_ids'],
          properties: { code: { type: 'string', examples: ['receivable_assigned_elsewhere'] }, message: { type: 'string' }, external_ids: { type: 'array', items: { type: 'string' } } },
        }],
      },
    },
  },
};

const providerHint = { type: 'object', additionalProperties: true };
const CALLBACK_SIGNATURE = 'Signed by the provider: `X-Provider-Timestamp` (Unix seconds) and `X-Provider-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` '
  + 'with the provider\'s secret. Missing, wrong or older than 5 minutes: 401. A replayed signature is accepted and does nothing. Own per-IP rate limit.';
const accepted = { 202: json('Accepted: the workflow re-reads the provider', { type: 'object', properties: { accepted: { type: 'boolean' } } }) };

export const lifecyclePaths = {
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
        + '409 operation_not_in_signable_state means not yet. 502 esign_*_failed: the operation is CONTRACT_ERROR and re-dispatchable.',
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
        + 'Later states: 409 operation_cannot_be_cancelled.',
      security: clientScopes('operation:create'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', properties: { reason: { type: ['string', 'null'], maxLength: 500 } } }, false),
      responses: { 200: json('The cancelled operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/approval-queue': {
    get: {
      operationId: 'approvalQueue', tags: ['backoffice'], summary: 'Operations waiting for approval, across originators, oldest first',
      description: 'Backoffice users with backoffice:read: operations in WAITING_APPROVAL of every originator, filtered by originator, assignor, amount and creation time.',
      security: userSecurity('backoffice:read'),
      parameters: [
        ...pagination,
        { name: 'originator_id', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
        { name: 'assignor_document', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } },
        { name: 'min_amount', in: 'query', required: false, schema: { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' } },
        { name: 'max_amount', in: 'query', required: false, schema: { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$' } },
        { name: 'created_from', in: 'query', required: false, schema: timestampInput({ type: 'string', format: 'date-time' }) },
        { name: 'created_to', in: 'query', required: false, schema: timestampInput({ type: 'string', format: 'date-time' }) },
      ],
      responses: { 200: json('Page of the queue', listOf(ref('ApprovalQueueItem'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/backoffice/operations/{id}/approve': {
    post: {
      operationId: 'approveOperation', tags: ['backoffice'], summary: 'Approve: WAITING_APPROVAL → PRE_APPROVED, then the contract is dispatched',
      description: 'Backoffice users with backoffice:decide. 409 when the operation is no longer WAITING_APPROVAL.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', properties: { note: { type: ['string', 'null'], maxLength: 1000 } } }, false),
      responses: { 200: json('The approved operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/operations/{id}/deny': {
    post: {
      operationId: 'denyOperation', tags: ['backoffice'], summary: 'Deny with a reason: WAITING_APPROVAL → DENIED',
      description: 'Backoffice users with backoffice:decide; the reason is kept with the decision and sent in operation.denied. 409 when the operation is no longer WAITING_APPROVAL.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 1000 } } }),
      responses: { 200: json('The denied operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/operations/{id}/retry-disbursement': {
    post: {
      operationId: 'retryDisbursement', tags: ['backoffice'], summary: 'DISBURSEMENT_FAILED → DISBURSING with a new PIX order',
      description: 'Backoffice users with backoffice:decide, after the PIX order was refused. 409 when the operation is not DISBURSEMENT_FAILED.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      responses: { 200: json('The operation, disbursing again', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/internal/esign/callback': {
    post: {
      operationId: 'esignCallback', tags: ['internal'], summary: 'E-sign provider callback (a hint: a signer signed)', security: [], 'x-rate-limit': 'callback',
      description: `For the provider only; a hint that wakes the operation's workflow, which re-reads the provider itself. ${CALLBACK_SIGNATURE}`,
      requestBody: jsonBody(providerHint),
      responses: { ...accepted, ...errors(401, 422, 429) },
    },
  },
  '/v1/internal/pix/callback': {
    post: {
      operationId: 'pixCallback', tags: ['internal'], summary: 'PIX provider callback (a hint: a payment settled or was refused)', security: [], 'x-rate-limit': 'callback',
      description: `For the provider only; a hint that wakes the operation's workflow, which re-reads the provider itself. ${CALLBACK_SIGNATURE}`,
      requestBody: jsonBody(providerHint),
      responses: { ...accepted, ...errors(401, 422, 429) },
    },
  },
};
