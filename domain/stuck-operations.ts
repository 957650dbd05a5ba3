/**
 * When an operation counts as stuck, per waiting state, and what unsticks it (docs/operations.md).
 * States absent here either move on their own within seconds or wait for a person by design
 * (`WAITING_APPROVAL` has its own queue).
 */
export interface StuckRule {
  status: string;
  /** How long the operation may wait in the state before it is shown; 0: at once. */
  thresholdSeconds: number;
  action: string;
  /** The backoffice route that unsticks it, when one exists; `{id}` is the operation. */
  actionRoute: string | null;
  /** Shown only while an NF-e's latest check before the PIX is `pending` (the state alone is passed through in milliseconds). */
  nfeCheckPending?: true;
  /** Shown only while some open title of it is in dispute (a paid operation waits for its payers by design). */
  titleDisputed?: true;
}

const MINUTE = 60;
const DAY = 24 * 60 * MINUTE;

export const STUCK_RULES: readonly StuckRule[] = [
  {
    status: 'DISBURSEMENT_FAILED', thresholdSeconds: 0,
    action: 'The PIX was refused: fix the assignor\'s account with them, then retry the disbursement (a new PIX with a new key); or the integrator cancels.',
    actionRoute: 'POST /v1/backoffice/operations/{id}/retry-disbursement',
  },
  {
    status: 'CONTRACT_ERROR', thresholdSeconds: 0,
    action: 'The e-sign provider refused the dispatch: once it is healthy again, send the contract again; or the integrator cancels.',
    actionRoute: 'POST /v1/backoffice/operations/{id}/contract/send-for-signature',
  },
  {
    status: 'DISBURSING', thresholdSeconds: 10 * MINUTE,
    action: 'The PIX settlement is late: look at the getDisbursement activity in Temporal Web; a PIX provider outage shows as retries. Restarting workers never pays twice.',
    actionRoute: null,
  },
  {
    status: 'SIGNED', thresholdSeconds: 0, nfeCheckPending: true,
    action: 'SEFAZ gave no verdict on an NF-e (nfe_check: the last cStat and xMotivo): 108/109 SEFAZ paused, wait; 656 the key rests, up to an hour; 226 correct SEFAZ_AUTHORIZERS and restart. '
      + 'Nothing pays meanwhile; it pays or cancels by itself once SEFAZ answers.',
    actionRoute: null,
  },
  {
    status: 'PAID', thresholdSeconds: 0, titleDisputed: true,
    action: 'After payout an NF-e was cancelled or its payer disowned it (title.disputed; the title\'s dispute says which): nothing moved. Ask the assignor for the '
      + 'payer\'s word or a replacement invoice; if the debt is not owed, agree the repurchase with the assignor (a payable).',
    actionRoute: null,
  },
  {
    status: 'SIGNED', thresholdSeconds: 10 * MINUTE,
    action: 'The checks before the PIX wait: on the escriturador (registerOperationActs retrying in Temporal Web, titles[].registration not_requested or requested) '
      + 'or on SEFAZ (checkNfesBeforePayout retrying, titles[].nfe_check pending). Nothing pays meanwhile; once it answers the operation pays or cancels by itself. '
      + 'If the escriturador refuses our requests (not an outage), fix the originator\'s registration settings; the integrator may cancel once it answers.',
    actionRoute: null,
  },
  {
    status: 'CONTRACT_SENT', thresholdSeconds: 2 * DAY,
    action: 'Signers have not signed: with embedded signature the integrator must present each sign_url; otherwise remind the signer of the e-mail. Cancel if the deal is off.',
    actionRoute: null,
  },
];

/** What unsticks an operation whose NF-e passed while its product waits for the payer's confirmation. */
export const AWAITING_PAYER_ACTION = 'The payer has not confirmed its NF-e (manifestação 210200) and the product requires it: the assignor asks its payer to register the '
  + 'confirmation at SEFAZ; the next check (15 min doubling to 6 h) then pays. At the product\'s deadline it is cancelled (payer_confirmation_missing).';

/** What unsticks an operation whose acts at the escriturador are awaited before the PIX (docs/operations.md, "Escriturador"). */
export const AWAITING_REGISTRAR_ACTION = 'The escriturador has not answered our acts on these titles (registerOperationActs retrying in Temporal Web; alert RegistrationWaiting): '
  + 'check REGISTRAR_URL and the escriturador\'s status. If it refuses our requests (registrar_refused in the worker\'s log), fix REGISTRAR_API_KEY or the originator\'s '
  + 'registration settings. Nothing pays meanwhile; once it answers the operation pays or cancels by itself.';

/** The latest moment an operation may have entered `rule.status` and still count as stuck at `now`. */
export function stuckSince(rule: StuckRule, now: Date): Date {
  return new Date(now.getTime() - rule.thresholdSeconds * 1000);
}
