import { errors, json, userSecurity } from '../openapi/helpers';
import { releasePath, releaseVersions } from '../openapi/releases';

const health = {
  type: 'object',
  required: ['status', 'env', 'version', 'uptime_seconds'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    env: { type: 'string', enum: ['prod', 'sandbox', 'dev'] },
    version: { type: 'string' },
    uptime_seconds: { type: 'integer' },
    checks: { type: 'object', additionalProperties: { type: 'string', enum: ['ok', 'down'] } },
  },
};

const deepHealth = {
  type: 'object',
  required: ['status', 'env', 'version', 'dependencies'],
  properties: {
    status: { type: 'string', enum: ['ok', 'degraded'] },
    env: { type: 'string' },
    version: { type: 'string' },
    uptime_seconds: { type: 'integer' },
    dependencies: {
      type: 'object',
      properties: {
        database: { type: 'object', properties: { status: { type: 'string' }, latency_ms: { type: 'integer' } } },
        temporal: { type: 'object', properties: { status: { type: 'string' }, latency_ms: { type: 'integer' }, namespace: { type: 'string' } } },
        worker: { type: 'object', properties: { status: { type: 'string' }, task_queue: { type: 'string' }, pollers: { type: 'integer' } } },
      },
    },
  },
};

export const platformPaths = {
  '/v1/health': {
    get: {
      operationId: 'health', tags: ['platform'], summary: 'Liveness with dependency summary', security: [],
      description: 'Public, for load balancers: 200 when Postgres and Temporal answer, 503 with the same body (status degraded) when either does not. '
        + 'Answered from probes each api process runs in the background at most once a second, so a check never waits on a dependency '
        + 'and a failure shows within about 2 s. Rate-limited per origin address (120 a minute by default), counted in each api process.',
      'x-rate-limit': 'health',
      responses: {
        200: json('Service and its dependencies are up', health),
        503: json('Postgres or Temporal unreachable: same body with status degraded', health),
        ...errors(422, 429),
      },
    },
  },
  '/v1/health/deep': {
    get: {
      operationId: 'healthDeep', tags: ['platform'], summary: 'Database, Temporal and worker pollers', security: userSecurity('backoffice:operate'),
      description: 'For operators: a staff user token with `backoffice:operate`. Probes live; also checks that a worker polls the task queue; '
        + '503 with the same body (status degraded) when a dependency is down.',
      responses: { 200: json('Dependencies checked', deepHealth), 503: json('A dependency is down: same body, status degraded', deepHealth), ...errors(401, 403, 429) },
    },
  },
  '/v1/flow': {
    get: {
      operationId: 'flow', tags: ['platform'], summary: 'Machine-readable call sequence of the integration flow', security: [],
      description: 'Public. The integration call sequence as data: each step, its calls and the scope each needs.',
      responses: {
        200: json('The integration flow', {
          type: 'object',
          required: ['version', 'steps'],
          properties: {
            version: { type: 'string' },
            steps: {
              type: 'array',
              items: {
                type: 'object',
                required: ['step', 'name', 'calls'],
                properties: {
                  step: { type: 'integer' }, name: { type: 'string' }, optional: { type: 'boolean' }, description: { type: 'string' },
                  calls: { type: 'array', items: { type: 'object', properties: { method: { type: 'string' }, path: { type: 'string' }, scope: { type: ['string', 'null'] } } } },
                },
              },
            },
          },
        }),
        ...errors(429),
      },
    },
  },
  '/v1/openapi.json': {
    get: {
      operationId: 'openapi', tags: ['platform'], summary: 'This document', security: [], 'x-rate-limit': 'exempt',
      description: 'Public and not rate limited: the live OpenAPI 3.1 document. Earlier releases stay published unchanged at `/v1/openapi/<version>.json`.',
      responses: { 200: json('OpenAPI 3.1 document', { type: 'object' }), ...errors(422) },
    },
  },
  ...Object.fromEntries(releaseVersions().map((version) => [releasePath(version), {
    get: {
      operationId: `openapiRelease_${version.replace(/\./g, '_')}`, tags: ['platform'], summary: `The OpenAPI document of release ${version}`,
      description: 'Public and not rate limited: the document as it was released, frozen byte for byte. Every change to the live document is checked against it for breaking changes.',
      security: [], 'x-rate-limit': 'exempt',
      responses: { 200: json(`OpenAPI 3.1 document of release ${version}`, { type: 'object' }), ...errors(422) },
    },
  }])),
  '/v1/.well-known/jwks.json': {
    get: {
      operationId: 'jwks', tags: ['auth'], summary: 'Public keys that verify our RS256 tokens', security: [], 'x-rate-limit': 'exempt',
      description: 'Public and not rate limited: the RSA keys (by `kid`) that verify the RS256 tokens this service issues.',
      responses: {
        200: json('JSON Web Key Set', {
          type: 'object',
          required: ['keys'],
          properties: { keys: { type: 'array', items: { type: 'object', required: ['kty', 'kid', 'n', 'e'], properties: { kty: { type: 'string' }, kid: { type: 'string' }, n: { type: 'string' }, e: { type: 'string' }, alg: { const: 'RS256' }, use: { const: 'sig' } } } } },
        }),
        ...errors(422),
      },
    },
  },
};
