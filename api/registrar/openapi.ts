import { clientScopes, DOCUMENT_MAX_LENGTH, errors, json, jsonBody, ref, staffActSecurity } from '../openapi/helpers';
import { REGISTRATION_MISMATCH_KINDS } from '../../domain/escriturador/reconciliation';

const OUTSIDE_PROD = 'Outside production only (404 not_found there).';
/** domain/nfe-key.ts's shape: digits, and the issuer's alphanumeric CNPJ inside. */
const NFE_KEY = { type: 'string', minLength: 44, maxLength: 44, pattern: '^\\d{6}[0-9A-Z]{12}\\d{26}$' };
/**
 * Punctuation accepted, as everywhere a document is sent (domain/documents.ts), around exactly the 14
 * characters the handler reads: twelve letters or digits, then two check digits (which only it verifies).
 */
const CNPJ_INPUT = {
  type: 'string', minLength: 14, maxLength: DOCUMENT_MAX_LENGTH, pattern: '^[./\\- ]*(?:[0-9A-Za-z][./\\- ]*){12}(?:[0-9][./\\- ]*){2}$',
  description: 'A CNPJ (14 characters; punctuation accepted)',
};

/** Printable ASCII without spaces: the escriturador's ids. */
const PRINTABLE = '^[\\x21-\\x7E]+$';
const PROVIDER_SIGNED = [{ providerSignature: [], providerTimestamp: [] }];
const OUTCOMES = ['applied', 'applied_in_part', 'title_closed', 'informed_by_us', 'not_ours', 'recorded', 'repeat', 'ignored'];

/** What a registration reconciliation compared and found. */
const RECONCILIATION_ANSWER = json('What was compared and what differs', {
  type: 'object', required: ['checked', 'mismatches'],
  properties: {
    checked: { type: 'integer', minimum: 0, description: 'Acts compared' },
    mismatches: {
      type: 'array',
      items: {
        type: 'object', required: ['title_id', 'duplicata_id', 'act_id', 'kind'],
        properties: {
          title_id: { type: 'string', format: 'uuid' }, duplicata_id: { type: 'string', maxLength: 100, pattern: PRINTABLE },
          act_id: { type: 'string', maxLength: 100, pattern: PRINTABLE }, kind: { type: 'string', enum: [...REGISTRATION_MISMATCH_KINDS] },
        },
      },
    },
  },
});

export const registrarPaths = {
  '/v1/internal/registrar/callback': {
    post: {
      operationId: 'registrarCallback', tags: ['internal'], summary: 'Escriturador webhook: an act registered or cancelled, a duplicata paid',
      description: 'For the escriturador only (the worker registers this URL with it at start). Signed with REGISTRAR_CALLBACK_SECRET: `X-Provider-Timestamp` (Unix seconds) and '
        + '`X-Provider-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">`; missing, wrong or older than 5 minutes: 401 and nothing written (always 401 while no secret is set). '
        + 'Handled once per event `id`: a repeat answers `repeat`. `duplicata.settled` with `origem: boleto` (the payer paid the boleto dinâmico to the holder) pays our title '
        + 'through its workflow, channel REGISTRAR, up to its balance (`applied`, `applied_in_part`), or nothing when the title was paid by another path or went back to the assignor '
        + '(`title_closed`); `liquidada: true` marks our registration `settled`. A payment we informed (`origem: informado`) and act news change nothing (`informed_by_us`, `recorded`). '
        + 'An event type this service does not read is acknowledged (`ignored`); one it reads without its fields is 422 `registrar_event_unreadable`; 409 or 503 when the title\'s workflow could not take the payment now: the escriturador retries.',
      security: PROVIDER_SIGNED, 'x-rate-limit': 'callback',
      requestBody: jsonBody({ type: 'object', additionalProperties: true, required: ['evento', 'id'], properties: { evento: { type: 'string', maxLength: 60, pattern: PRINTABLE }, id: { type: 'string', maxLength: 100, pattern: PRINTABLE } } }),
      responses: {
        200: json('Handled (or handled before)', {
          type: 'object', required: ['accepted', 'outcome'], properties: { accepted: { type: 'boolean' }, outcome: { type: 'string', enum: OUTCOMES } },
        }),
        ...errors(401, 409, 422, 429, 503),
      },
    },
  },
  '/v1/backoffice/registrations/reconcile': {
    post: {
      operationId: 'reconcileRegistrations', tags: ['backoffice'], summary: 'Backoffice: compare our acts with the escriturador\'s now',
      description: 'As the daily `registration-reconciliation` schedule does: asks the escriturador for each duplicata on which we hold an act (in force, or cancelled or '
        + 'settled in the last 35 days) and reports each difference as the event `registration.reconciliation_mismatch` to the title\'s originator (once per title, kind and '
        + 'day) and the metric `receivables_registration_reconciliation_mismatches_total`: `act_missing_there`, `act_cancelled_there` (cancelled behind our back), `holder_changed_there` (negotiated behind our back), '
        + '`act_in_force_there` (we cancelled it), `settled_there` (a settlement we missed), `not_settled_there`. Nothing is changed. Analyst or above. '
        + 'Audited (`registration.reconcile`). 503 `registrar_unavailable` when the escriturador cannot be asked.',
      security: staffActSecurity(),
      responses: { 200: RECONCILIATION_ANSWER, ...errors(401, 403, 429, 503) },
    },
  },
  '/v1/sandbox/registrar/reconcile': {
    post: {
      operationId: 'reconcileSandboxRegistrations', tags: ['operations'], summary: 'Sandbox: compare the caller\'s acts with the escriturador\'s now',
      description: `${OUTSIDE_PROD} As the daily \`registration-reconciliation\` schedule does, for the caller\'s originator\'s acts only: each difference found is the event `
        + '`registration.reconciliation_mismatch` (once per title, kind and day). A transfer placed with `POST /v1/sandbox/registrar/transfers` after our act is `holder_changed_there`. '
        + '503 `registrar_unavailable` when the escriturador cannot be asked.',
      security: clientScopes('operation:create'),
      responses: { 200: RECONCILIATION_ANSWER, ...errors(401, 403, 404, 429, 503) },
    },
  },
  '/v1/sandbox/registrar/transfers': {
    post: {
      operationId: 'transferSandboxDuplicatas', tags: ['operations'], summary: 'Sandbox: another financier acquires an NF-e\'s duplicatas now',
      description: `${OUTSIDE_PROD} The sandbox escriturador records, now, the transfer of every duplicata of \`nfe_key\` to \`holder_document\`, `
        + 'as if a competitor had got there first: a later transfer asked by the seller is refused (`already_transferred`). Duplicatas not issued yet are issued first '
        + '(one installment `001` of 1000.00, due in 30 days). 422 for a malformed key (validation_error; NFE_KEY_CHECK_DIGIT_MISMATCH...) or CNPJ.',
      security: clientScopes('operation:create'),
      requestBody: jsonBody({
        type: 'object', required: ['nfe_key', 'holder_document'], additionalProperties: false,
        properties: { nfe_key: NFE_KEY, holder_document: CNPJ_INPUT },
      }),
      responses: {
        200: json('The key\'s duplicatas with their holder now', {
          type: 'object', required: ['nfe_key', 'duplicatas'],
          properties: {
            nfe_key: NFE_KEY,
            duplicatas: {
              type: 'array', maxItems: 999,
              items: {
                type: 'object', required: ['duplicata_id', 'installment', 'holder_document'],
                properties: {
                  duplicata_id: { type: 'string', maxLength: 100, pattern: '^[\\x21-\\x7E]+$', description: 'The escriturador\'s id of the duplicata' },
                  installment: { type: 'string', maxLength: 60, pattern: '^[\\x21-\\x7E]+$', description: 'The NF-e\'s nDup' },
                  holder_document: { type: 'string', maxLength: 14, pattern: '^[0-9A-Z]{11,14}$', description: 'The holder\'s CPF or CNPJ as stored, without punctuation' },
                },
              },
            },
          },
        }),
        ...errors(401, 403, 404, 422, 429, 502),
      },
    },
  },
  '/v1/sandbox/registrar/settlements': {
    post: {
      operationId: 'settleSandboxDuplicata', tags: ['operations'], summary: 'Sandbox: the payer pays a duplicata\'s boleto dinâmico at the escriturador',
      description: `${OUTSIDE_PROD} The sandbox escriturador records the payer paying \`amount\` on the installment of \`nfe_key\` (\`installment\`, the NF-e's nDup; `
        + 'default: its first one not paid in full) to whoever holds it now, and sends its signed `duplicata.settled` webhook: when we hold it, our title is paid '
        + '(PARTIALLY_PAID or PAID, event title.paid, ledger posted) and, once the duplicata is paid in full, its registration shows `settled`. 202: the payment applies when the webhook arrives. '
        + '404 duplicata_not_found (no such installment, or none left unpaid); 409 duplicata_settled; 422 for a malformed key or amount.',
      security: clientScopes('operation:create'),
      requestBody: jsonBody({
        type: 'object', required: ['nfe_key', 'amount'], additionalProperties: false,
        properties: {
          nfe_key: NFE_KEY,
          installment: { type: ['string', 'null'], minLength: 1, maxLength: 60, pattern: PRINTABLE, description: 'The NF-e\'s nDup ("001")' },
          amount: ref('PositiveMoneyInput'),
        },
      }),
      responses: {
        202: json('The duplicata as the escriturador holds it after the payment', {
          type: 'object', required: ['nfe_key', 'duplicata_id', 'installment', 'paid_amount', 'settled'],
          properties: {
            nfe_key: NFE_KEY,
            duplicata_id: { type: 'string', maxLength: 100, pattern: PRINTABLE },
            installment: { type: 'string', maxLength: 60, pattern: PRINTABLE },
            paid_amount: ref('Money'),
            settled: { type: 'boolean', description: 'Paid in full at the escriturador' },
          },
        }),
        ...errors(401, 403, 404, 409, 422, 429, 502),
      },
    },
  },
  '/v1/sandbox/registrar/outage': {
    post: {
      operationId: 'startSandboxRegistrarOutage', tags: ['operations'], summary: 'Sandbox: the escriturador unreachable for a while',
      description: `${OUTSIDE_PROD} The sandbox escriturador drops every connection unanswered for \`seconds\` from now. 0 ends an outage now.`,
      security: clientScopes('operation:create'),
      requestBody: jsonBody({ type: 'object', required: ['seconds'], additionalProperties: false, properties: { seconds: { type: 'integer', minimum: 0, maximum: 86_400 } } }),
      responses: {
        200: json('When the outage ends', { type: 'object', required: ['until'], properties: { until: { type: 'string', format: 'date-time' } } }),
        ...errors(401, 403, 404, 422, 429, 502),
      },
    },
  },
};
