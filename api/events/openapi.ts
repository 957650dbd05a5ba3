import { EVENT_KIND_LIST_MAX_ITEMS, EVENT_TYPES } from '../../domain/events';
import { EVENT_RETENTION_DAYS } from '../../domain/event-retention';
import { clientSecurity, errors, json, pathId, ref, Schema, timestampInput } from '../openapi/helpers';

const uuid = { type: 'string', format: 'uuid' };
const escaped = EVENT_TYPES.map((type) => type.replace('.', '\\.')).join('|');

/** The fields every event carries beside `data`, in a delivery and in `GET /v1/events` alike. */
export const eventOrderingProperties: Record<string, Schema> = {
  object_id: {
    ...uuid,
    description: 'The object the event is about: the operation, title, payable or stock item (or webhook endpoint) whose id `data` carries.',
  },
  // Stated here, not left to withFormatBounds: the webhook payloads share this schema and are not bounded by it.
  sequence: {
    type: 'integer', format: 'int64', minimum: 1,
    description: 'Counts the events of `object_id` one by one, from 1: keep the highest seen per object and drop an event with a lower one (it arrived late; the newer one already told the state).',
  },
};

export const eventSchemas = {
  Event: {
    type: 'object',
    description: 'An event as its webhook delivery carried it.',
    required: ['event_type', 'event_id', 'occurred_at', 'object_id', 'sequence', 'data'],
    properties: {
      event_type: { type: 'string', enum: [...EVENT_TYPES] },
      event_id: uuid,
      occurred_at: { type: 'string', format: 'date-time' },
      ...eventOrderingProperties,
      data: { type: 'object', description: 'As in the `webhooks` section of this document for the event\'s type.' },
    },
  },
  EventPage: {
    type: 'object',
    required: ['items', 'has_more', 'limit'],
    properties: {
      items: { type: 'array', items: ref('Event') },
      has_more: { type: 'boolean', description: 'More events lie beyond this page in the direction asked (older after `starting_after` or with no cursor, newer before `ending_before`).' },
      limit: { type: 'integer' },
    },
  },
};

const query = (name: string, schema: Schema, description: string): Schema => ({ name, in: 'query', required: false, schema, description });

const read = clientSecurity(['event:read']);

export const eventPaths = {
  '/v1/events': {
    get: {
      operationId: 'listEvents', tags: ['events'], summary: `The originator's events of the last ${EVENT_RETENTION_DAYS} days, newest first`, security: read,
      description: 'What the webhooks carried (or will carry), to pull: after an outage, list `delivery_success=false`, or page from the last event you processed. '
        + 'Cursor pagination: pass the `event_id` of the last item as `starting_after` for the next (older) page, or of the first as `ending_before` for the previous one; '
        + 'pages do not move as new events arrive. 422 `event_cursor_not_found` when the cursor is no event of yours in the window, `event_cursors_exclusive` when both are sent.',
      parameters: [
        query('type', {
          type: 'array', maxItems: EVENT_KIND_LIST_MAX_ITEMS,
          items: { type: 'string', pattern: `^(?:${escaped})(?:,(?:${escaped}))*$`, maxLength: EVENT_TYPES.join(',').length },
        }, `Only these kinds: repeat the parameter or send a comma list (at most ${EVENT_KIND_LIST_MAX_ITEMS} values of at most ${EVENT_TYPES.join(',').length} characters).`),
        {
          ...query('created', {
            type: 'object', additionalProperties: false,
            properties: { gte: timestampInput({ type: 'string', format: 'date-time' }), lt: timestampInput({ type: 'string', format: 'date-time' }) },
          }, 'Occurred at or after `created[gte]`, before `created[lt]`.'),
          style: 'deepObject', explode: true,
        },
        query('object_id', uuid, 'Only the events about this operation, title, stock item or payable (the envelope\'s `object_id`).'),
        query('operation_id', uuid, 'An operation\'s whole story: the events of the operation and of its titles, their PIX charges and the payables its overdue titles opened.'),
        query('delivery_success', { type: 'boolean' },
          '`false`: events some subscribed endpoint has not received yet (still retrying, given up, or its endpoint disabled); `true`: events no endpoint is waiting for.'),
        query('starting_after', uuid, 'An `event_id`: the page of events older than it.'),
        query('ending_before', uuid, 'An `event_id`: the page of events newer than it.'),
        query('limit', { type: 'integer', minimum: 1, maximum: 100, default: 50 }, 'Page size, at most 100.'),
      ],
      responses: { 200: json('A page of events', ref('EventPage')), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/events/{event_id}': {
    get: {
      operationId: 'getEvent', tags: ['events'], summary: 'One event, in the envelope its webhook carried', security: read,
      description: `404 \`event_not_found\` when the id is unknown, another originator's, or older than ${EVENT_RETENTION_DAYS} days.`,
      parameters: [pathId('event_id')],
      responses: { 200: json('The event', ref('Event')), ...errors(401, 403, 404, 422, 429) },
    },
  },
};
