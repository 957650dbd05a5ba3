import { EVENT_TYPES } from '../../domain/events';
import { URL_REJECTION_CODES } from '../../domain/url-guard';
import { clientSecurity, errors, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref } from '../openapi/helpers';

const timestamp = { type: 'string', format: 'date-time' };
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
      events: { ...eventList, minItems: 1, description: 'The event kinds to receive; repeated kinds count once.' },
      description: { type: ['string', 'null'], maxLength: 500 },
    },
  },
  Webhook: {
    type: 'object',
    required: ['id', 'url', 'events', 'event_types', 'description', 'created_at', 'previous_secret_expires_at'],
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
        description: 'Why there was no answer: timeout (10 s), connection_refused, connection_failed, tls_error, or a URL guard code when the address connected to is not public.',
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
      description: 'Each attempt with its answer status and timing, paginated with `limit` and `offset`. 404 when the subscription is unknown or another originator\'s.',
      parameters: [webhookId, ...pagination],
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
};
