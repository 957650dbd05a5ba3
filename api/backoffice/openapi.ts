import { DECIMAL_STRING_MAX_LENGTH } from '../openapi/components';
import { DOCUMENT_MAX_LENGTH, errors, staffActSecurity, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref, timestampInput, userSecurity } from '../openapi/helpers';

const timestamp = { type: 'string', format: 'date-time' };
const amountFilter = { type: 'string', pattern: '^\\d+(\\.\\d{1,2})?$', maxLength: DECIMAL_STRING_MAX_LENGTH };
/** A staff action that takes no fields: a body, when sent, must be empty, so nothing rides along into the record. */
const noFields = jsonBody({ type: 'object', additionalProperties: false, properties: {}, maxProperties: 0 }, false);
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };
const temporalWebUrl = { type: ['string', 'null'], description: 'The operation\'s workflow in Temporal Web; null when TEMPORAL_WEB_URL is not configured' };

const approvalProgressProperties = {
  approvals_required: { type: 'integer', enum: [1, 2], description: 'Four-eyes: 2 when the requested total is above the policy\'s dual_approval_above_brl at creation, else 1' },
  approvals: {
    type: 'array', description: 'The approvals given so far by distinct approvers when two are required, oldest first (empty for a single approval)',
    items: {
      type: 'object', required: ['user_id', 'email', 'approved_at'],
      properties: { user_id: { type: 'string', format: 'uuid' }, email: { type: 'string' }, approved_at: { type: 'string', format: 'date-time' } },
    },
  },
};

export const backofficeSchemas = {
  BackofficeOperation: {
    type: 'object',
    required: ['operation', 'approvals_required', 'approvals', 'originator', 'assignor', 'contracts', 'contract_signers', 'disbursements', 'payer_payments', 'timeline', 'temporal_web_url'],
    properties: {
      operation: ref('Operation'),
      test_clock: { anyOf: [ref('TestClock'), { type: 'null' }], description: 'Sandbox: the test clock the operation lives on; null otherwise or once deleted' },
      ...approvalProgressProperties,
      originator: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } },
      assignor: {
        type: 'object', required: ['id', 'name', 'document', 'email'],
        properties: {
          id: { type: 'string', format: 'uuid' }, type: { type: 'string' }, document: { type: 'string' }, name: { type: 'string' },
          trade_name: { type: ['string', 'null'] }, email: { type: 'string' }, disbursement_method: { type: ['string', 'null'] },
        },
      },
      approved_at: nullableTimestamp,
      deny_reason: { type: ['string', 'null'] },
      cancel_reason: { type: ['string', 'null'] },
      contracts: {
        type: 'array', description: 'Every dispatch attempt, oldest first',
        items: {
          type: 'object', required: ['id', 'attempt', 'status', 'type'],
          properties: {
            id: { type: 'string', format: 'uuid' }, attempt: { type: 'integer' }, status: { type: 'string', enum: ['PENDING', 'SENT', 'SIGNED', 'ERROR', 'VOIDED'] },
            type: { type: 'string' }, is_first_contract: { type: 'boolean' }, embedded: { type: 'boolean' }, signers_count: { type: 'integer' },
            error_code: { type: ['string', 'null'] }, signed_at: nullableTimestamp, created_at: timestamp, updated_at: timestamp,
          },
        },
      },
      contract_signers: {
        type: 'object', description: 'The contract in force, read live from the provider (no sign_url: that is the signer\'s credential)',
        required: ['signers', 'signers_error'],
        properties: {
          document_status: { type: ['string', 'null'] },
          signers: { type: ['array', 'null'], items: { type: 'object', required: ['name', 'status', 'signed'], properties: { name: { type: 'string' }, status: { type: 'string' }, signed: { type: 'boolean' } } } },
          signers_error: { type: ['string', 'null'], description: 'esign_unavailable when the provider failed' },
        },
      },
      disbursements: {
        type: 'array', description: 'Every PIX attempt, oldest first',
        items: {
          type: 'object', required: ['id', 'attempt', 'amount', 'status'],
          properties: {
            id: { type: 'string', format: 'uuid' }, attempt: { type: 'integer' }, amount: ref('Money'), status: { type: 'string', enum: ['PENDING', 'SETTLED', 'REJECTED'] },
            settled_amount: { type: ['string', 'null'] }, rejection_reason: { type: ['string', 'null'] }, settled_at: nullableTimestamp, created_at: timestamp, updated_at: timestamp,
          },
        },
      },
      payer_payments: {
        type: 'array',
        items: {
          type: 'object', required: ['id', 'title_id', 'external_id', 'amount', 'remaining_after', 'channel'],
          properties: {
            id: { type: 'string', format: 'uuid' }, title_id: { type: 'string', format: 'uuid' }, title_external_id: { type: 'string' }, external_id: { type: 'string' },
            amount: ref('Money'), remaining_after: ref('Money'), paid_at: timestamp, channel: { type: 'string' }, created_at: timestamp,
          },
        },
      },
      timeline: {
        type: 'array', description: 'The operation\'s events (those webhooks deliver), oldest first',
        items: {
          type: 'object', required: ['event_id', 'event_type', 'occurred_at', 'data', 'actor_email'],
          properties: {
            event_id: { type: 'string', format: 'uuid' }, event_type: { type: 'string' }, occurred_at: timestamp, data: { type: 'object' },
            actor_email: { type: ['string', 'null'], description: 'The e-mail of the person the event names (who approved, denied or cancelled), when a user did; `data` keeps the user id' },
            deliveries: {
              type: 'array', description: 'Every POST of the event to the originator\'s webhook endpoints, oldest first',
              items: {
                type: 'object', required: ['webhook_id', 'url', 'attempt_number', 'delivered_successfully', 'response_status_code', 'error', 'created_at'],
                properties: {
                  webhook_id: { type: 'string', format: 'uuid' }, url: { type: 'string' }, attempt_number: { type: 'integer' }, delivered_successfully: { type: 'boolean' },
                  response_status_code: { type: ['integer', 'null'] }, error: { type: ['string', 'null'] }, created_at: timestamp,
                },
              },
            },
          },
        },
      },
      temporal_web_url: temporalWebUrl,
    },
  },
  StuckOperation: {
    type: 'object',
    required: ['id', 'display_number', 'lifecycle_status', 'originator_id', 'in_state_since', 'waiting_seconds', 'threshold_seconds', 'action', 'action_route', 'temporal_web_url'],
    properties: {
      id: { type: 'string', format: 'uuid' }, display_number: { type: 'string' }, lifecycle_status: ref('LifecycleStatus'),
      originator_id: { type: 'string', format: 'uuid' }, originator_name: { type: 'string' }, assignor_name: { type: 'string' },
      opr_net_present_liquid_value: ref('Money'),
      in_state_since: { ...timestamp, description: 'When the operation last moved' },
      waiting_seconds: { type: 'integer', minimum: 0 },
      threshold_seconds: { type: 'integer', minimum: 0, description: 'How long this state may last before it is shown here' },
      action: { type: 'string', description: 'What unsticks it, from the operations runbook' },
      action_route: { type: ['string', 'null'], description: 'The backoffice route that unsticks it, when one exists' },
      temporal_web_url: temporalWebUrl,
      nfe_check: ref('StuckNfeCheck'),
      registration_wait: ref('StuckRegistrationWait'),
    },
  },
  StuckRegistrationWait: {
    type: 'object',
    description: 'Present on an operation waiting in SIGNED past its threshold, not held at an NF-e check, whose originator registers at an escriturador: the NF-e titles '
      + 'whose act before the PIX the escriturador has not answered yet (`not_requested`: the duplicata\'s lookup unanswered; `requested`: the transfer asked, unanswered)',
    required: ['registrar', 'titles'],
    properties: {
      registrar: { type: 'string', maxLength: 64, pattern: '^[a-z0-9_]+$', description: 'The escriturador the originator registers at, as its settings name it', examples: ['sandbox'] },
      titles: {
        type: 'array', minItems: 1,
        items: {
          type: 'object', required: ['title_id', 'external_id', 'status'],
          properties: { title_id: { type: 'string', format: 'uuid' }, external_id: { type: 'string' }, status: { type: 'string', enum: ['not_requested', 'requested'] } },
        },
      },
    },
  },
  StuckNfeCheck: {
    type: 'object',
    description: 'Present on an operation held in SIGNED by its NF-e check before the PIX: the pending latest check that holds it (SEFAZ gave no verdict; or, with `reason` '
      + '`payer_confirmation_missing`, the product requires the payer\'s confirmation and none came yet)',
    required: ['title_id', 'nfe_key', 'reason', 'cstat', 'xmotivo', 'checked_at'],
    properties: {
      title_id: { type: 'string', format: 'uuid' },
      nfe_key: { type: 'string', pattern: '^[0-9]{44}$', maxLength: 44 },
      reason: { type: ['string', 'null'], maxLength: 64, pattern: '^[a-z_]+$', description: '`payer_confirmation_missing`, or null while SEFAZ gives no verdict' },
      cstat: { type: 'string', pattern: '^[0-9]{3}$', maxLength: 3, description: 'SEFAZ\'s last cStat for the key (109: paused; 656: consumo indevido; 137/138: the distribution\'s, when awaiting the payer)' },
      xmotivo: { type: 'string', maxLength: 255 },
      checked_at: { type: 'string', format: 'date-time' },
    },
  },
};

export const backofficePaths = {
  '/v1/backoffice/webhooks': {
    get: {
      operationId: 'backofficeListWebhooks', tags: ['backoffice'], summary: 'One originator\'s webhook endpoints with their health',
      description: 'Backoffice users with backoffice:read: the endpoints of the originator, newest first, each with its status (disabled and why), last success, last failure and failure streak; never a secret.',
      security: userSecurity('backoffice:read'),
      parameters: [...pagination, { name: 'originator_id', in: 'query', required: true, schema: { type: 'string', format: 'uuid' } }],
      responses: { 200: json('Page of endpoints', listOf(ref('Webhook'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/backoffice/originators': {
    get: {
      operationId: 'listOriginators', tags: ['backoffice'], summary: 'Every originator, by name (for the queue\'s filter)',
      description: 'Id and name of every originator, ordered by name: what the backoffice console offers in its approval-queue filter.',
      security: userSecurity('backoffice:read'),
      responses: {
        200: json('Originators', { type: 'object', required: ['items'], properties: { items: { type: 'array', items: { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', format: 'uuid' }, name: { type: 'string' } } } } } }),
        ...errors(401, 403, 429),
      },
    },
  },
  '/v1/backoffice/operations/{id}': {
    get: {
      operationId: 'backofficeGetOperation', tags: ['backoffice'], summary: 'One operation of any originator, with parties, contracts, PIX attempts, payments and timeline',
      description: 'The operation as its integrator reads it, plus what staff need to decide on it: parties, every contract dispatch with the signers\' status read live from the provider (never a `sign_url`), every PIX attempt, payer payments, the event timeline and a link to its workflow in Temporal Web.',
      security: userSecurity('backoffice:read'),
      parameters: [pathId('id')],
      responses: { 200: json('The operation page', ref('BackofficeOperation')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/backoffice/stuck-operations': {
    get: {
      operationId: 'stuckOperations', tags: ['backoffice'], summary: 'Operations waiting longer than their state allows, longest waiting first',
      description: 'DISBURSEMENT_FAILED and CONTRACT_ERROR at once, DISBURSING after 10 minutes, CONTRACT_SENT after 2 days; '
        + 'each with the action that unsticks it (docs/operations.md) and a link to its workflow in Temporal Web.',
      security: userSecurity('backoffice:read'),
      parameters: [...pagination],
      responses: { 200: json('Page of stuck operations', listOf(ref('StuckOperation'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/backoffice/operations/{id}/contract/send-for-signature': {
    post: {
      operationId: 'backofficeResendContract', tags: ['backoffice'], summary: 'Send the contract again after CONTRACT_ERROR (CONTRACT_ERROR → CONTRACT_SENT)',
      description: 'The same dispatch as the integrator\'s route; answers the operation (the signers\' URLs are theirs, not staff\'s). '
        + '409 contract_already_exists (dispatched already) or operation_not_in_signable_state; 502 esign_*_failed: still CONTRACT_ERROR.',
      security: staffActSecurity(),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: noFields,
      responses: { 200: json('The operation, its contract sent', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 502, 503) },
    },
  },
};


/** The approval queue and the decisions on an operation. */
export const approvalSchemas = {
  ApprovedOperation: {
    allOf: [ref('Operation'), { type: 'object', required: ['approvals_required', 'approvals'], properties: approvalProgressProperties }],
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
      ...approvalProgressProperties,
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

export const approvalPaths = {
  '/v1/backoffice/approval-queue': {
    get: {
      operationId: 'approvalQueue', tags: ['backoffice'], summary: 'Operations waiting for approval, across originators, oldest first',
      description: 'Backoffice users with backoffice:read: operations in WAITING_APPROVAL of every originator, filtered by originator, assignor, amount and creation time.',
      security: userSecurity('backoffice:read'),
      parameters: [
        ...pagination,
        { name: 'originator_id', in: 'query', required: false, schema: { type: 'string', format: 'uuid' } },
        { name: 'assignor_document', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } },
        { name: 'min_amount', in: 'query', required: false, schema: amountFilter },
        { name: 'max_amount', in: 'query', required: false, schema: amountFilter },
        { name: 'created_from', in: 'query', required: false, schema: timestampInput({ type: 'string', format: 'date-time' }) },
        { name: 'created_to', in: 'query', required: false, schema: timestampInput({ type: 'string', format: 'date-time' }) },
      ],
      responses: { 200: json('Page of the queue', listOf(ref('ApprovalQueueItem'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/backoffice/operations/{id}/approve': {
    post: {
      operationId: 'approveOperation', tags: ['backoffice'], summary: 'Approve: WAITING_APPROVAL → PRE_APPROVED, then the contract is dispatched',
      description: 'Backoffice users with backoffice:decide (role approver). 409 operation_cannot_be_approved when the operation is no longer WAITING_APPROVAL. '
        + 'Four-eyes: when `approvals_required` is 2, the first approval answers 200 with the operation still WAITING_APPROVAL and the approval in `approvals`; '
        + 'the same approver again is 409 approver_already_approved; the approval of a second approver moves it on. A deny by any approver ends it. '
        + '409 approvers_not_independent when one of the two approvers created or last changed the other\'s account in the last 30 days.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: { note: { type: ['string', 'null'], maxLength: 1000 } } }, false),
      responses: { 200: json('The operation, approved or with one approval of two', ref('ApprovedOperation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/operations/{id}/deny': {
    post: {
      operationId: 'denyOperation', tags: ['backoffice'], summary: 'Deny with a reason: WAITING_APPROVAL → DENIED',
      description: 'Backoffice users with backoffice:decide; the reason is kept with the decision and sent in operation.denied. 409 when the operation is no longer WAITING_APPROVAL.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 1000 } } }),
      responses: { 200: json('The denied operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/operations/{id}/cancel': {
    post: {
      operationId: 'backofficeCancelOperation', tags: ['backoffice'], summary: 'Cancel an operation of any originator before the money moves, with a reason',
      description: 'Backoffice users with backoffice:decide (role approver): the integrator\'s cancellation, by staff, in the same states '
        + '(WAITING_APPROVAL, APPROVED_DIRECT, PRE_APPROVED, CONTRACT_ERROR, CONTRACT_SENT, DISBURSEMENT_FAILED); 409 operation_cannot_be_cancelled in any other. '
        + 'The audit row (`operation.cancel`) is written with the cancellation, in its transaction.',
      security: userSecurity('backoffice:decide'),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', additionalProperties: false, required: ['reason'], properties: { reason: { type: 'string', minLength: 1, maxLength: 500 } } }),
      responses: { 200: json('The cancelled operation', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/operations/{id}/retry-disbursement': {
    post: {
      operationId: 'retryDisbursement', tags: ['backoffice'], summary: 'DISBURSEMENT_FAILED → DISBURSING with a new PIX order',
      description: 'Backoffice users with backoffice:act (analysts and approvers), after the PIX order was refused. 409 when the operation is not DISBURSEMENT_FAILED.',
      security: staffActSecurity(),
      parameters: [pathId('id'), idempotencyKey(false)],
      requestBody: noFields,
      responses: { 200: json('The operation, disbursing again', ref('Operation')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
};
