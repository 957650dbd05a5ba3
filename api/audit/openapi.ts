import { errors, json, timestampInput } from '../openapi/helpers';

const auditSecurity = [{ userSession: ['backoffice:admin'] }, { userSession: ['backoffice:decide'] }];

const filters = [
  { name: 'target_id', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'Rows about this resource (an operation, a title, a user)' },
  { name: 'actor_id', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 200 }, description: 'Rows by this user or credential id' },
  { name: 'action', in: 'query', required: false, schema: { type: 'string', minLength: 1, maxLength: 100 }, description: 'e.g. operation.approve' },
  {
    name: 'created', in: 'query', required: false, style: 'deepObject', explode: true, description: '`created[gte]` and `created[lt]`: occurred at or after, before',
    schema: {
      type: 'object', additionalProperties: false,
      properties: { gte: timestampInput({ type: 'string', format: 'date-time' }), lt: timestampInput({ type: 'string', format: 'date-time' }) },
    },
  },
  { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
  { name: 'cursor', in: 'query', required: false, schema: { type: 'string', pattern: '^[0-9]{1,18}$', maxLength: 18 }, description: 'next_cursor of the previous page' },
];

const description = 'The audit trail, newest first: every staff action (sign-in success and failure, approve, deny, cancel, retry-disbursement, send-for-signature, '
  + 'payer payment, payload decode, collection sweep, test-clock advance, audit checkpoint) with actor, ip, user agent, request id, the record before and after and, apart, what the request sent (`request`). Append-only: the database refuses UPDATE and '
  + 'DELETE; `hash` is the SHA-256 over the row and `prev_hash` (the previous row\'s hash), which `npm run audit:verify` walks. For admins and approvers.';

export const auditSchemas = {
  AuditEvent: {
    type: 'object',
    required: ['id', 'occurred_at', 'actor', 'action', 'target', 'ip', 'user_agent', 'request_id', 'before', 'after', 'request', 'prev_hash', 'hash'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      occurred_at: { type: 'string', format: 'date-time' },
      actor: {
        type: 'object', required: ['type', 'id'],
        properties: { type: { type: 'string', enum: ['user', 'client', 'system'] }, id: { type: 'string' }, email: { type: 'string' }, client_id: { type: 'string' } },
      },
      action: { type: 'string', examples: ['operation.approve'] },
      target: { anyOf: [{ type: 'null' }, { type: 'object', required: ['type', 'id'], properties: { type: { type: 'string' }, id: { type: 'string' } } }] },
      ip: { type: ['string', 'null'] },
      user_agent: { type: ['string', 'null'] },
      request_id: { type: ['string', 'null'] },
      before: { description: 'The state before the action, as the system read it' },
      after: { description: 'What the action did, as the system recorded it: never what the request sent' },
      request: { description: 'What the request sent (its own fields, after the schema refused any other); null when it sent nothing and on rows written before it was kept' },
      prev_hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      hash: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    },
  },
};

export const auditPaths = {
  '/v1/backoffice/audit-events': {
    get: {
      operationId: 'listAuditEvents', tags: ['backoffice'], summary: 'The audit trail, filtered, newest first, by cursor', description,
      security: auditSecurity,
      parameters: filters,
      responses: {
        200: json('A page of the audit trail', {
          type: 'object', required: ['items', 'next_cursor'],
          properties: { items: { type: 'array', items: { $ref: '#/components/schemas/AuditEvent' } }, next_cursor: { type: ['string', 'null'], description: 'null on the last page' } },
        }),
        ...errors(401, 403, 422, 429),
      },
    },
  },
  '/v1/backoffice/audit-events.csv': {
    get: {
      operationId: 'exportAuditEvents', tags: ['backoffice'], summary: 'The same page of the audit trail as CSV',
      description: `${description} Columns: occurred_at, actor_type, actor_id, actor_email, action, target_type, target_id, ip, user_agent, request_id, before, after, prev_hash, hash; the next page's cursor is in the Link header (rel="next").`,
      security: auditSecurity,
      parameters: filters,
      responses: {
        200: { description: 'CSV (RFC 4180), one row per event', content: { 'text/csv': { schema: { type: 'string' } } } },
        ...errors(401, 403, 422, 429),
      },
    },
  },
};
