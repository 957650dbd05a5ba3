import { clientScopes, errors, json, jsonBody, pathId, ref, staffActSecurity } from '../openapi/helpers';

/** Signed like the other provider callbacks (api/middleware/provider-signature.ts), with PIX_COLLECTION_CALLBACK_SECRET. */
const COLLECTION_SIGNED = [{ providerSignature: [], providerTimestamp: [] }];
const SIGNED = 'Signed with PIX_COLLECTION_CALLBACK_SECRET: `X-Provider-Timestamp` (Unix seconds) and `X-Provider-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`. '
  + 'Missing, wrong or older than 5 minutes: 401 (always 401 while collection is off). A replayed signature is accepted and does nothing.';

const sweepAnswer = json('The window swept and the payments it applied (those the webhooks had missed); empty when none was missed', ref('CollectionSweep'));
/** The sweep's 503s: the usual envelope, or `collection_sweep_incomplete` with what it applied and what it left. */
const sweepUnavailable = json('Some PIX could not be applied now (`collection_sweep_incomplete`: the sweep went on past them; `detail.applied` are applied, '
  + '`detail.unapplied` say which were left and why; the next run tries them again), or a dependency every PIX needs is down (database_unavailable, '
  + 'pix_collection_unavailable: the sweep stopped there, the PIX before it stay applied); retryable with backoff', ref('CollectionSweepUnavailable'));

export const collectionSchemas = {
  ReconciledPix: {
    type: 'object',
    required: ['end_to_end_id', 'txid', 'title_id', 'received_brl', 'applied_brl', 'late_income_brl', 'refunded_brl', 'title_status'],
    properties: {
      end_to_end_id: { type: 'string', description: 'The PIX\'s id in the payments system; the payer payment\'s external_id' },
      txid: { type: 'string' },
      title_id: { type: 'string', format: 'uuid' },
      received_brl: { ...ref('Money'), description: 'What the payer sent: applied + late income + refunded' },
      applied_brl: { ...ref('Money'), description: 'What reduced the title\'s balance' },
      late_income_brl: { ...ref('Money'), description: 'Fine and interest (paid after the due date): the originator\'s income, not principal' },
      refunded_brl: { ...ref('Money'), description: 'Returned to the payer (devolucao): the excess over the balance, or everything when the title had closed' },
      title_status: { type: 'string', description: 'The title after this payment' },
    },
  },
  CollectionSweep: {
    type: 'object',
    required: ['from', 'to', 'applied'],
    properties: {
      from: { type: 'string', format: 'date-time' },
      to: { type: 'string', format: 'date-time' },
      applied: { type: 'array', items: ref('ReconciledPix') },
    },
  },
  CollectionSweepUnavailable: {
    type: 'object',
    required: ['detail'],
    properties: {
      detail: {
        description: 'A code string (the PSP or Postgres down, ...), or `collection_sweep_incomplete` with the window, what was applied and what was left.',
        oneOf: [{ type: 'string' }, ref('CollectionSweepIncomplete')],
      },
    },
  },
  CollectionSweepIncomplete: {
    type: 'object',
    required: ['code'],
    properties: {
      code: { type: 'string', examples: ['collection_sweep_incomplete'] },
      message: { type: 'string' },
      from: { type: 'string', format: 'date-time' },
      to: { type: 'string', format: 'date-time' },
      applied: { type: 'array', items: ref('ReconciledPix'), description: 'Applied by this run despite the PIX left' },
      unapplied: { type: 'array', items: ref('UnappliedPix') },
    },
  },
  UnappliedPix: {
    type: 'object',
    required: ['end_to_end_id', 'txid', 'code'],
    properties: {
      end_to_end_id: { type: 'string' },
      txid: { type: ['string', 'null'] },
      code: { type: 'string', description: 'Why it was left: title_payment_unavailable (its title refused the payment for a reason reconciliation has no rule for), '
        + 'workflow_unavailable (its operation\'s workflow did not answer the update in time), database_lock_timeout, internal_error...' },
    },
  },
};

export const collectionPaths = {
  '/v1/internal/pix-collection/pix': {
    post: {
      operationId: 'pixCollectionCallback', tags: ['internal'], summary: 'Collection PSP webhook (API Pix): PIX received against titles\' charges', security: COLLECTION_SIGNED, 'x-rate-limit': 'callback',
      description: 'For the collection PSP only: API Pix posts `{pix: [...]}` to the registered webhook URL plus `/pix`. Each PIX is stored and applied to its title '
        + 'exactly once (external_id = endToEndId); a repeat, or one the sweep applied first, changes nothing. A PIX without a txid of ours, sent to an '
        + `originator's collection key, is held in that originator's suspense (ledger \`unidentified_receipts\`). ${SIGNED}`,
      requestBody: jsonBody({ type: 'object', additionalProperties: true, properties: { pix: { type: 'array', maxItems: 1_000, items: { type: 'object', additionalProperties: true } } } }),
      responses: { 200: json('Applied (or already applied)', { type: 'object', properties: { accepted: { type: 'boolean' } } }), ...errors(401, 422, 429, 503) },
    },
  },
  '/v1/internal/pix-collection/sweep': {
    post: {
      operationId: 'pixCollectionSweep', tags: ['internal'], summary: 'The hourly collection sweep (the Temporal Schedule\'s call)', security: COLLECTION_SIGNED, 'x-rate-limit': 'callback',
      description: `For the worker's schedule only: as \`POST /v1/backoffice/collection/sweep\`. ${SIGNED}`,
      responses: { 200: sweepAnswer, ...errors(401, 429), 503: sweepUnavailable },
    },
  },
  '/v1/backoffice/collection/sweep': {
    post: {
      operationId: 'sweepCollection', tags: ['backoffice'], summary: 'Backoffice: apply now the PIX payments the webhooks missed',
      description: 'Lists what the collection PSP received in the last PIX_COLLECTION_SWEEP_WINDOW_HOURS (48) and applies each PIX not applied yet, exactly once, '
        + 'as the hourly schedule does. A PIX that cannot be applied now does not hold the others: the sweep applies every other and answers 503 '
        + '`collection_sweep_incomplete` naming it. Analyst or above. Audited (`collection.sweep`).',
      security: staffActSecurity(),
      responses: { 200: sweepAnswer, ...errors(401, 403, 429, 502), 503: sweepUnavailable },
    },
  },
  '/v1/sandbox/titles/{id}/pix': {
    post: {
      operationId: 'simulateTitlePix', tags: ['titles'], summary: 'Sandbox: the payer pays the title\'s PIX charge',
      description: 'Outside production only (404 not_found there). The sandbox PSP receives a PIX against the title\'s charge as the payer\'s bank would send it, '
        + 'and notifies us by webhook: `once` (default), `twice` (a repeat: applied once) or `lost` (none: the sweep finds it). `amount` defaults to what the BR Code asks today '
        + '(the balance, plus fine and interest after the due date); less leaves the title PARTIALLY_PAID and the charge revised, more is refunded for the excess. '
        + '202 with the PIX\'s endToEndId: the payment is applied when the webhook (or the sweep) arrives. 409 title_has_no_pix_charge, pix_charge_not_active.',
      security: clientScopes('operation:create'),
      parameters: [pathId('id')],
      requestBody: jsonBody({
        type: 'object',
        properties: {
          amount: { ...ref('PositiveMoneyInput'), description: 'Default: what the charge asks today' },
          webhook: { type: 'string', enum: ['once', 'twice', 'lost'], default: 'once' },
        },
      }, false),
      responses: {
        202: json('The PIX the PSP received', {
          type: 'object', required: ['end_to_end_id', 'txid', 'amount_brl', 'paid_at'],
          properties: { end_to_end_id: { type: 'string' }, txid: { type: 'string' }, amount_brl: ref('Money'), paid_at: { type: 'string', format: 'date-time' } },
        }),
        ...errors(401, 403, 404, 409, 422, 429, 502),
      },
    },
  },
};
