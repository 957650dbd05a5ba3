import { errors, json, ref, userSecurity } from '../openapi/helpers';

const count = { type: 'number', minimum: 0 };
const nullableCount = { type: ['number', 'null'], minimum: 0 };

export const systemSchemas = {
  SystemFigures: {
    type: 'object',
    description: 'The key figures of the api\'s own metrics (GET /metrics on its loopback listener), for the console\'s System page.',
    required: ['process_started_at', 'database_up', 'routes', 'operations', 'outbox_pending', 'webhook_deliveries_retrying'],
    properties: {
      process_started_at: { type: 'string', format: 'date-time', description: 'Request counts are those of the api process that answered, since this moment' },
      database_up: { type: 'boolean', description: 'Whether this process read its figures from Postgres within 2 s' },
      routes: {
        type: 'array',
        items: {
          type: 'object',
          required: ['method', 'route', 'requests', 'client_errors', 'server_errors', 'mean_ms'],
          properties: {
            method: { type: 'string' }, route: { type: 'string', description: 'Route template, `unmatched`, or a page tree' },
            requests: count, client_errors: count, server_errors: count, mean_ms: count,
          },
        },
      },
      operations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['lifecycle_status', 'count', 'oldest_seconds'],
          properties: { lifecycle_status: ref('LifecycleStatus'), count, oldest_seconds: { ...count, description: 'How long the oldest operation in this state has been in it' } },
        },
      },
      outbox_pending: { ...nullableCount, description: 'Workflow starts not made yet; null when Postgres did not answer' },
      webhook_deliveries_retrying: { ...nullableCount, description: 'Deliveries whose latest attempt failed, waiting for the next; null when Postgres did not answer' },
    },
  },
};

export const systemPaths = {
  '/v1/backoffice/system': {
    get: {
      operationId: 'backofficeSystemFigures', tags: ['backoffice'], summary: 'Key figures of the api\'s own metrics: requests and errors per route, operations per state, outbox, deliveries failing',
      description: 'What the console\'s System page shows and refreshes. Operations per state, the outbox backlog and the deliveries failing are read from Postgres (kept 5 s); requests per route are counted by the api process that answers.',
      security: userSecurity('backoffice:read'),
      responses: { 200: json('The figures', ref('SystemFigures')), ...errors(401, 403, 429) },
    },
  },
};
