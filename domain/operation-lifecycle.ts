import type { Money } from './money';

/** DESIGN.md §5: the operation's lifecycle, as data shared by workflows, activities and the api. */
export const LIFECYCLE_STATUSES = [
  'WAITING_APPROVAL', 'APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_SENT', 'CONTRACT_ERROR', 'SIGNED',
  'DISBURSING', 'DISBURSEMENT_FAILED', 'PAID', 'SETTLED', 'DENIED', 'CANCELLED',
] as const;

export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

/**
 * The state table (DESIGN.md §5): where each state may move. The workflow moves only along it, the
 * update validators ask it, and the read-model write guards each move with it.
 */
export const TRANSITIONS: Readonly<Record<LifecycleStatus, readonly LifecycleStatus[]>> = {
  WAITING_APPROVAL: ['PRE_APPROVED', 'DENIED', 'CANCELLED'],
  APPROVED_DIRECT: ['CONTRACT_SENT', 'CONTRACT_ERROR', 'CANCELLED'],
  PRE_APPROVED: ['CONTRACT_SENT', 'CONTRACT_ERROR', 'CANCELLED'],
  // CONTRACT_ERROR also when the provider no longer knows the document it was sent.
  CONTRACT_SENT: ['SIGNED', 'CONTRACT_ERROR', 'CANCELLED'],
  CONTRACT_ERROR: ['CONTRACT_SENT', 'CANCELLED'],
  // CANCELLED from SIGNED is the workflow's own: an NF-e refused by its check before the PIX (never a request).
  SIGNED: ['DISBURSING', 'CANCELLED'],
  DISBURSING: ['PAID', 'DISBURSEMENT_FAILED'],
  DISBURSEMENT_FAILED: ['DISBURSING', 'CANCELLED'],
  PAID: ['SETTLED'],
  SETTLED: [],
  DENIED: [],
  CANCELLED: [],
};

/**
 * What the workflow waits for in each state, in words an operator can act on: the workflow's
 * `state` query answers it and docs/operations.md repeats it with the action that unsticks it.
 */
export const WAITING_FOR: Readonly<Record<LifecycleStatus, string>> = {
  WAITING_APPROVAL: 'backoffice approval (approve, deny) or cancel',
  APPROVED_DIRECT: 'contract dispatch',
  PRE_APPROVED: 'contract dispatch',
  CONTRACT_SENT: 'signatures (provider callback or polling)',
  CONTRACT_ERROR: 'send-for-signature (POST /v1/operations/{id}/contract/send-for-signature) or cancel',
  SIGNED: 'the NF-e check at SEFAZ, then our acts at the escriturador (originators with registration settings), then the PIX disbursement',
  DISBURSING: 'PIX settlement (provider callback or polling)',
  DISBURSEMENT_FAILED: 'a human: retry the disbursement or cancel',
  PAID: 'payer payments on the titles, or their deadlines',
  SETTLED: 'nothing (terminal)',
  DENIED: 'nothing (terminal)',
  CANCELLED: 'nothing (terminal)',
};

/** The states from which the table allows a move to `to`. */
export function statesLeadingTo(to: LifecycleStatus): LifecycleStatus[] {
  return LIFECYCLE_STATUSES.filter((from) => TRANSITIONS[from].includes(to));
}

export const canMove = (from: LifecycleStatus, to: LifecycleStatus): boolean => TRANSITIONS[from].includes(to);

/** Whether the table leads from `from` to `to` in one or more moves. */
export function leadsTo(from: LifecycleStatus, to: LifecycleStatus): boolean {
  const seen = new Set<LifecycleStatus>();
  const next = [...TRANSITIONS[from]];
  while (next.length > 0) {
    const state = next.pop()!;
    if (state === to) return true;
    if (seen.has(state)) continue;
    seen.add(state);
    next.push(...TRANSITIONS[state]);
  }
  return false;
}

/**
 * What a read-model write moving the operation to `to` does from `current`. `done` covers a write
 * run again after later ones already committed: a worker that dies before its workflow task
 * completes makes the next worker re-run that task's local activities, whose later moves the row
 * already shows. Only a row the table cannot reach from `to` is a real disagreement.
 */
export function readModelMove(current: LifecycleStatus, to: LifecycleStatus): 'move' | 'done' | 'refuse' {
  if (current === to) return 'done';
  if (canMove(current, to)) return 'move';
  return leadsTo(to, current) ? 'done' : 'refuse';
}

/**
 * Requests the workflow's main line honours at its next rest point rather than in their own
 * handler: the state each asks for, the states it may be asked (and stay pending) in, and its
 * refusal code. One is pending at a time; every move settles it (see `settleRequest`).
 */
export const PENDING_REQUESTS = {
  cancel: { to: 'CANCELLED', from: statesLeadingTo('CANCELLED').filter((state) => state !== 'SIGNED'), refusal: 'operation_cannot_be_cancelled' },
  retryDisbursement: { to: 'DISBURSING', from: ['DISBURSEMENT_FAILED'], refusal: 'operation_cannot_retry_disbursement' },
} as const satisfies Record<string, { to: LifecycleStatus; from: readonly LifecycleStatus[]; refusal: string }>;

export type PendingRequestKind = keyof typeof PENDING_REQUESTS;

export const acceptsRequest = (request: PendingRequestKind, status: LifecycleStatus): boolean =>
  (PENDING_REQUESTS[request].from as readonly LifecycleStatus[]).includes(status);

/**
 * What a move to `status` does to a pending request: `answered` when it is the move the request
 * asked for, `pending` while the request could still be asked in the new state, `refused`
 * otherwise: the move that won made it unreachable, so it is answered with its 409 and forgotten.
 */
export function settleRequest(request: PendingRequestKind, status: LifecycleStatus): 'answered' | 'pending' | 'refused' {
  if (status === PENDING_REQUESTS[request].to) return 'answered';
  return acceptsRequest(request, status) ? 'pending' : 'refused';
}

export const APPROVED_STATES: readonly LifecycleStatus[] = ['APPROVED_DIRECT', 'PRE_APPROVED'];
/** A contract may be dispatched from these: approved and nothing at the provider in force. */
export const SIGNABLE_STATES: readonly LifecycleStatus[] = statesLeadingTo('CONTRACT_SENT');
/** Where a cancel may be asked: SIGNED leads to CANCELLED only by the workflow's own check before the PIX. */
export const CANCELLABLE_STATES: readonly LifecycleStatus[] = PENDING_REQUESTS.cancel.from;

/** States some path from a creation state reaches without passing through `gate`. */
function reachableAvoiding(gate: LifecycleStatus): Set<LifecycleStatus> {
  const starts = LIFECYCLE_STATUSES.filter((state) => statesLeadingTo(state).length === 0);
  const seen = new Set<LifecycleStatus>(starts);
  const next = [...starts];
  while (next.length > 0) {
    for (const to of TRANSITIONS[next.pop()!]) {
      if (to !== gate && !seen.has(to)) { seen.add(to); next.push(to); }
    }
  }
  return seen;
}

/**
 * The contract is out: CONTRACT_SENT and every state no operation reaches without passing through
 * it (a second dispatch is `contract_already_exists`). CONTRACT_ERROR and CANCELLED are not among
 * them: an operation reaches both before any contract was sent.
 */
export const DISPATCHED_STATES: readonly LifecycleStatus[] = (() => {
  const withoutContract = reachableAvoiding('CONTRACT_SENT');
  return LIFECYCLE_STATUSES.filter((state) => state === 'CONTRACT_SENT' || !withoutContract.has(state));
})();

/** Auto-approval gate (contract rule 8): within a positive limit → born approved; absent or zero → human. */
export function initialStatus(requestedTotal: Money, autoApproveLimit: Money | null): LifecycleStatus {
  if (autoApproveLimit === null || autoApproveLimit.isZero()) return 'WAITING_APPROVAL';
  return autoApproveLimit.gte(requestedTotal) ? 'APPROVED_DIRECT' : 'WAITING_APPROVAL';
}
