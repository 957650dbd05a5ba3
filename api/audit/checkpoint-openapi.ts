import { clientSecurity, errors, idempotencyKey, json, listOf, pagination, ref, userSecurity } from '../openapi/helpers';

const about = 'A checkpoint signs the head of the backoffice audit trail (its last row\'s `seq` and `hash`, and the time) with the key that signs our tokens '
  + '(a compact JWS, RS256, whose `kid` is in GET /v1/.well-known/jwks.json), and is published outside our database: to each originator whose '
  + 'operations or titles the rows since the previous checkpoint are about (event `audit.checkpoint`, and this list), and to an append-only log. '
  + 'A trail rewritten after a checkpoint no longer leads to its head: `npm run audit:verify -- --checkpoints <file or URL>` says which. Made every hour.';

export const checkpointSchemas = {
  AuditCheckpoint: {
    type: 'object',
    required: ['id', 'seq', 'hash', 'from_seq', 'signed_at', 'kid', 'jws'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      seq: { type: 'integer', format: 'int64', description: 'The last row of the trail it covers' },
      hash: { type: 'string', pattern: '^[0-9a-f]{64}$', description: 'That row\'s hash: the head of the chain' },
      from_seq: { type: 'integer', format: 'int64', description: 'The first row the previous checkpoint did not cover' },
      signed_at: { type: 'string', format: 'date-time' },
      kid: { type: 'string', description: 'The signing key\'s id in the JWKS' },
      jws: { type: 'string', description: 'Compact JWS (RS256; header `kid`, `typ` audit-checkpoint+jws) over `{id, seq, hash, time, from_seq, root}`; `root` is the RFC 6962 Merkle root over the covered rows\' `seq:hash` (absent from checkpoints made before it)' },
    },
  },
};

export const checkpointPaths = {
  '/v1/backoffice/audit/checkpoints': {
    post: {
      operationId: 'createAuditCheckpoint', tags: ['backoffice'], summary: 'Sign the audit trail\'s head now and publish it',
      description: `${about} Admins; audited (\`audit.checkpoint\`). 409 audit_trail_empty while the trail has no row.`,
      security: userSecurity('backoffice:admin'),
      parameters: [idempotencyKey(false)],
      responses: { 201: json('The checkpoint made', ref('AuditCheckpoint')), ...errors(401, 403, 409, 422, 429, 503) },
    },
  },
  '/v1/audit/checkpoints': {
    get: {
      operationId: 'listAuditCheckpoints', tags: ['events'], summary: 'The audit checkpoints that cover staff actions on your operations, newest first',
      description: `${about} Keep them: they are what shows the trail about you was not rewritten.`,
      security: clientSecurity(['event:read']),
      parameters: [...pagination],
      responses: { 200: json('A page of checkpoints', listOf(ref('AuditCheckpoint'))), ...errors(401, 403, 422, 429) },
    },
  },
};
