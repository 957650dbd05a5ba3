import { EVENT_KIND_LIST_MAX_ITEMS, EVENT_TYPES } from '../../domain/events';
import { URL_REJECTION_CODES } from '../../domain/url-guard';
import { TLS_FAILURE_CODES } from '../../providers/tls-failure';
import { clientSecurity, errors, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref, timestampInput } from '../openapi/helpers';

const timestamp = { type: 'string', format: 'date-time' };
const nullableTimestamp = { type: ['string', 'null'], format: 'date-time' };
/** DESIGN.md §10's schedule, in words, as `WEBHOOK_RETRY_SCHEDULE_MS` sets it by default. */
export const RETRY_SCHEDULE = 'immediately, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (8 attempts), then given up';
const uuid = { type: 'string', format: 'uuid' };
const eventList = { type: 'array', items: { type: 'string', enum: [...EVENT_TYPES] } };

export const webhookSchemas = {
  WebhookRegistration: {
    type: 'object',
    required: ['url', 'events'],
    properties: {
      url: {
        type: 'string', minLength: 1, maxLength: 2048,
        description: `HTTPS URL whose host resolves only to public addresses; otherwise 422 with \`detail.code\` one of ${URL_REJECTION_CODES.join(', ')}.`,
      },
      events: {
        ...eventList, minItems: 1, maxItems: EVENT_KIND_LIST_MAX_ITEMS,
        description: `The event kinds to receive; repeated kinds count once. At most ${EVENT_KIND_LIST_MAX_ITEMS} entries.`,
      },
      description: { type: ['string', 'null'], maxLength: 500 },
      max_per_second: {
        type: 'integer', minimum: 1, maximum: 1000, default: 20,
        description: 'At most this many POSTs a second reach the endpoint (deliveries and recoveries together); more wait their turn.',
      },
    },
  },
  Webhook: {
    type: 'object',
    description: `Deliveries are retried ${RETRY_SCHEDULE}. An endpoint whose every delivery failed for 5 days is disabled (\`status\` disabled, the operational event webhook_endpoint.disabled) until \`POST /v1/webhooks/{id}/enable\`.`,
    required: [
      'id', 'url', 'events', 'event_types', 'description', 'created_at', 'previous_secret_expires_at',
      'status', 'disabled_reason', 'disabled_at', 'last_success_at', 'last_failure_at', 'failing_since', 'failure_streak', 'max_per_second',
    ],
    properties: {
      id: uuid,
      url: { type: 'string' },
      events: { ...eventList, description: 'The subscribed event kinds.' },
      event_types: { ...eventList, description: 'The same list as `events` (both names are in use).' },
      description: { type: ['string', 'null'] },
      created_at: timestamp,
      previous_secret_expires_at: {
        type: ['string', 'null'], format: 'date-time',
        description: 'After a rotation, the previous secret still signs (second signature in `webhook-signature`) until this instant.',
      },
      status: { type: 'string', enum: ['enabled', 'disabled'], description: 'A disabled endpoint receives nothing; its events wait (`GET /v1/events?delivery_success=false`) until it is enabled.' },
      disabled_reason: { type: ['string', 'null'], examples: ['deliveries_failing'], description: 'deliveries_failing: every delivery failed for 5 days.' },
      disabled_at: nullableTimestamp,
      last_success_at: nullableTimestamp,
      last_failure_at: nullableTimestamp,
      failing_since: { ...nullableTimestamp, description: 'The first failed POST since the last success; null while the last one succeeded.' },
      failure_streak: { type: 'integer', minimum: 0, description: 'Failed POSTs since the last success.' },
      max_per_second: { type: 'integer', minimum: 1 },
    },
  },
  WebhookEnabled: {
    allOf: [ref('Webhook')],
    type: 'object',
    required: ['recovery'],
    properties: { recovery: { anyOf: [ref('WebhookRecovery'), { type: 'null' }], description: 'The recovery of what it missed while disabled, when asked for.' } },
  },
  WebhookRecoveryRequest: {
    type: 'object',
    required: ['since'],
    additionalProperties: false,
    properties: {
      since: timestampInput({ ...timestamp, description: 'Events that occurred at or after this instant (within the 30 days events are kept).' }),
      until: timestampInput({ type: ['string', 'null'], format: 'date-time', description: 'And before this one; now when absent or later.' }),
    },
  },
  WebhookRecovery: {
    type: 'object',
    description: 'A recovery: every event of the window the endpoint is subscribed to, re-delivered in the order recorded (each object\'s `sequence` order). '
      + 'When the endpoint refuses one, the recovery waits and tries it again on the delivery retry schedule, sending nothing after it meanwhile; it ends `failed` once the schedule is spent.',
    required: ['id', 'webhook_id', 'since', 'until', 'status', 'total', 'delivered', 'failed_event_id', 'last_error', 'created_at', 'finished_at'],
    properties: {
      id: uuid,
      webhook_id: uuid,
      since: timestamp,
      until: timestamp,
      status: { type: 'string', enum: ['running', 'completed', 'failed', 'cancelled'], description: 'cancelled: the webhook was deleted meanwhile.' },
      total: { type: 'integer', minimum: 0, description: 'Events in the window (progress is delivered / total).' },
      delivered: { type: 'integer', minimum: 0 },
      failed_event_id: { type: ['string', 'null'], format: 'uuid', description: 'The event the endpoint refused last, while it is retried or once failed.' },
      last_error: { type: ['string', 'null'] },
      created_at: timestamp,
      finished_at: nullableTimestamp,
    },
  },
  WebhookWithSecret: {
    allOf: [ref('Webhook')],
    type: 'object',
    required: ['hmac_secret'],
    properties: {
      hmac_secret: {
        type: ['string', 'null'],
        description: 'Shown only in this response; null in an idempotent replay. Keys `X-Service-Signature` as is, and `webhook-signature` as a Standard Webhooks secret (`whsec_` + base64 key).',
      },
    },
  },
  WebhookDelivery: {
    type: 'object',
    description: 'One delivery attempt. A failed attempt with `next_retry_at` null is the last one: the delivery was given up.',
    required: ['id', 'event_id', 'event_type', 'url', 'response_status_code', 'duration_ms', 'attempt_number', 'delivered_successfully', 'next_retry_at', 'error', 'created_at'],
    properties: {
      id: uuid,
      event_id: uuid,
      event_type: { type: 'string', enum: [...EVENT_TYPES] },
      url: { type: 'string' },
      response_status_code: { type: ['integer', 'null'], description: 'Null when the receiver gave no HTTP answer (see `error`).' },
      duration_ms: { type: 'integer', minimum: 0 },
      attempt_number: { type: 'integer', minimum: 1 },
      delivered_successfully: { type: 'boolean', description: 'True for a 2xx answer. Redirects are not followed.' },
      next_retry_at: { type: ['string', 'null'], format: 'date-time' },
      error: {
        type: ['string', 'null'],
        description: 'Why there was no answer: timeout (10 s), connection_refused, connection_failed, a URL guard code when the address connected to is not public, '
          + `or why the receiver's certificate was refused: ${TLS_FAILURE_CODES.join(', ')} (tls_error: a handshake failure of another kind). Treat an unknown value as a failure like these.`,
      },
      created_at: timestamp,
    },
  },
  WebhookRetryAccepted: {
    type: 'object',
    required: ['webhook_id', 'delivery_id', 'event_id', 'status'],
    properties: { webhook_id: uuid, delivery_id: uuid, event_id: uuid, status: { const: 'accepted' } },
  },
};

const read = clientSecurity(['webhook:read'], ['webhook:write']);
const write = clientSecurity(['webhook:write']);
const webhookId = pathId('webhook_id');

export const webhookPaths = {
  '/v1/webhooks': {
    post: {
      operationId: 'createWebhook', tags: ['webhooks'], summary: 'Register a webhook subscription', security: write,
      description: 'Events of the caller\'s originator are POSTed to the URL, signed with the secret returned once in this response. The URL must be HTTPS to a public host.',
      parameters: [idempotencyKey(false)],
      requestBody: jsonBody(ref('WebhookRegistration')),
      responses: { 201: json('Registered; `hmac_secret` is shown only here', ref('WebhookWithSecret')), ...errors(401, 403, 409, 422, 429) },
    },
    get: {
      operationId: 'listWebhooks', tags: ['webhooks'], summary: 'Webhook subscriptions, newest first', security: read,
      description: 'Only the caller\'s originator\'s subscriptions; secrets are never listed.',
      parameters: pagination,
      responses: { 200: json('Page of subscriptions', listOf(ref('Webhook'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/webhooks/{webhook_id}': {
    delete: {
      operationId: 'deleteWebhook', tags: ['webhooks'], summary: 'Delete a subscription; its pending deliveries stop', security: write,
      description: '404 when the id is unknown or belongs to another originator.',
      parameters: [webhookId, idempotencyKey(false)],
      responses: { 204: { description: 'Deleted; no body' }, ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/webhooks/{webhook_id}/deliveries': {
    get: {
      operationId: 'listWebhookDeliveries', tags: ['webhooks'], summary: 'Delivery attempts of a subscription, newest first', security: read,
      description: 'Each attempt with its answer status and timing, paginated with `limit` and `offset`. 404 when the subscription is unknown or another originator\'s. '
        + '`operation_id` keeps the attempts that carried that operation\'s story, as `GET /v1/events?operation_id=` lists it.',
      parameters: [webhookId, ...pagination, {
        name: 'operation_id', in: 'query', required: false, schema: { type: 'string', format: 'uuid' },
        description: 'Only the attempts carrying events of this operation or of its titles, PIX charges and payables.',
      }],
      responses: { 200: json('Page of delivery records', listOf(ref('WebhookDelivery'))), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/webhooks/{webhook_id}/rotate-secret': {
    post: {
      operationId: 'rotateWebhookSecret', tags: ['webhooks'], security: write,
      description: 'Receivers can verify with either secret during the overlap, then drop the old one. '
        + '`previous_secret_expires_in_seconds` sets the overlap (0 to 86400, default 86400); 0 stops the old secret at once, '
        + 'for a secret that leaked: the next delivery carries one signature and `previous_secret_expires_at` is null. '
        + 'Rotating again replaces the previous secret with the one just rotated out.',
      summary: 'New secret, shown once; the previous one keeps signing beside it for 24 hours unless cut short',
      parameters: [webhookId, idempotencyKey(false)],
      requestBody: jsonBody({
        type: 'object',
        properties: {
          previous_secret_expires_in_seconds: {
            type: 'integer', minimum: 0, maximum: 86_400, default: 86_400,
            description: 'How long the rotated-out secret keeps signing beside the new one; 0 ends it now.',
          },
        },
      }, false),
      responses: { 200: json('Rotated; `hmac_secret` is the new secret', ref('WebhookWithSecret')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/retry': {
    post: {
      operationId: 'retryWebhookDelivery', tags: ['webhooks'], security: write,
      description: '503 when the delivery workflow cannot be reached right now; retry later.',
      summary: 'Send the event of this delivery again now (its pending retry, or one more attempt when none is pending)',
      parameters: [webhookId, pathId('delivery_id'), idempotencyKey(false)],
      responses: { 202: json('The attempt is on its way; it appears in the delivery list', ref('WebhookRetryAccepted')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/webhooks/{webhook_id}/recover': {
    post: {
      operationId: 'recoverWebhook', tags: ['webhooks'], security: write,
      summary: 'Re-deliver every event of a window this endpoint is subscribed to, in order, in the background',
      description: 'For a receiver that was down or dropped events: the recovery runs as a background job whose progress `GET .../recoveries/{recovery_id}` reads. '
        + 'Deliveries count against `max_per_second`. 422 `recover_window_empty` when since is not before until (or now), `recover_since_beyond_retention` beyond 30 days, '
        + '`recover_window_before_endpoint` when since is before the endpoint\'s `created_at` (it was never subscribed to earlier events; `endpoint_created_at` says from when); '
        + '409 `webhook_recovery_running` (with its `recovery_id`) while another recovery of the endpoint still runs; '
        + '503 `webhook_recovery_unavailable` when the job cannot be started right now (nothing was written; retry).',
      parameters: [webhookId, idempotencyKey(false)],
      requestBody: jsonBody(ref('WebhookRecoveryRequest')),
      responses: { 202: json('The recovery started', ref('WebhookRecovery')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/webhooks/{webhook_id}/recoveries/{recovery_id}': {
    get: {
      operationId: 'getWebhookRecovery', tags: ['webhooks'], summary: 'A recovery\'s progress', security: read,
      description: '404 `webhook_recovery_not_found` when the recovery is not this webhook\'s.',
      parameters: [webhookId, pathId('recovery_id')],
      responses: { 200: json('The recovery', ref('WebhookRecovery')), ...errors(401, 403, 404, 422, 429) },
    },
  },
  '/v1/webhooks/{webhook_id}/enable': {
    post: {
      operationId: 'enableWebhook', tags: ['webhooks'], security: write,
      summary: 'Turn a disabled endpoint back on, optionally re-delivering what it missed since it was disabled',
      description: 'Clears the failure streak. With `recover: true` a recovery of the events since it was disabled starts (503 `webhook_recovery_unavailable` when it cannot start; 409 `webhook_recovery_running`, nothing changed, while an earlier recovery still runs). An enabled endpoint stays as it is.',
      parameters: [webhookId, idempotencyKey(false)],
      requestBody: jsonBody({ type: 'object', additionalProperties: false, properties: { recover: { type: 'boolean', default: false } } }, false),
      responses: { 200: json('The endpoint, enabled', ref('WebhookEnabled')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
};
