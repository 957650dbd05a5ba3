import { Money } from '../../domain/money';
import type { OperationState } from '../../workflows/operation/messages';
import type { OperationUnderTest, SentUpdate } from './operation-under-test';
import type { OperationWorld } from './world';

const TERMINAL = ['SETTLED', 'DENIED', 'CANCELLED'];
const describeUpdate = (u: SentUpdate) => `${u.id} ${JSON.stringify(u.arg)}`;

/**
 * What must hold whenever the workflow is at rest (issue #23), whatever came before. Each returns
 * the broken rules in words, empty when all hold.
 */
export async function brokenAtRest(under: OperationUnderTest, state: OperationState, stalled: boolean): Promise<string[]> {
  const { world } = under;
  const broken = [...world.violations];
  if (state.status !== world.status) broken.push(`the workflow says ${state.status} while its read model says ${world.status}`);
  // Only provider calls stall, and the run's own writes are local activities: at rest none is in flight, or a request would wait on it for ever.
  const activity = await under.runActivity();
  if (activity !== 'idle') broken.push(`the workflow is at rest but its run is still ${activity}`);
  // With nothing stalled every stand-in answers at once: an update still waiting waits on a state that may never come.
  if (!stalled) {
    for (const u of await under.unanswered()) broken.push(`${describeUpdate(u)} is still unanswered with the workflow at rest in ${state.status}`);
    if (TERMINAL.includes(state.status) && !(await under.closed())) broken.push(`the workflow is at rest in ${state.status} but has not completed`);
  }
  for (const u of under.updates) {
    if (u.answer && !u.answer.ok && u.answer.code.startsWith('error: ')) broken.push(`${describeUpdate(u)} failed with no contract code: ${u.answer.code}`);
  }
  broken.push(...refusedButApplied(under), ...answeredButNotApplied(under), ...paymentLedger(under, state), ...booksAtRest(world));
  if (world.settledPayments().length > 1) broken.push(`${world.settledPayments().length} PIX payments settled for one operation`);
  return broken;
}

/** A request answered with a refusal never takes effect, then or later. */
function refusedButApplied(under: OperationUnderTest): string[] {
  const broken: string[] = [];
  const refused = new Map(under.updates.filter((u) => u.answer && !u.answer.ok).map((u) => [u.id, u]));
  for (const move of under.world.moves) {
    const request = move.actor ? refused.get(move.actor) : undefined;
    if (request) broken.push(`${describeUpdate(request)} was refused (${(request.answer as { code: string }).code}) yet moved the operation ${move.from} → ${move.to}`);
  }
  for (const title of under.world.titles) {
    for (const externalId of title.applied.keys()) {
      const payments = under.updates.filter((u) => u.name === 'payerPayment' && sentPayment(u).titleId === title.titleId && sentPayment(u).payment.externalId === externalId);
      if (payments.length > 0 && payments.every((u) => u.answer && !u.answer.ok)) broken.push(`payment ${externalId} on ${title.titleId} was refused every time yet applied`);
    }
  }
  return broken;
}

/** A request answered as done did what it says. */
function answeredButNotApplied(under: OperationUnderTest): string[] {
  const broken: string[] = [];
  const movedBy = (id: string, to: string) => under.world.moves.some((m) => m.actor === id && m.to === to);
  for (const u of under.updates) {
    if (!u.answer?.ok) continue;
    if (u.name === 'approve' && (u.answer.value as OperationState).status === 'WAITING_APPROVAL') {
      // The first of two approvals: recorded, the operation still waiting for the other approver.
      const { approver } = u.arg as { approver?: { userId: string } };
      if (!approver || !under.world.approvals.includes(approver.userId)) broken.push(`${describeUpdate(u)} answered as a first approval, but none was recorded`);
      continue;
    }
    const expected = { approve: 'PRE_APPROVED', deny: 'DENIED', cancel: 'CANCELLED' }[u.name as 'approve' | 'deny' | 'cancel'];
    if (expected && !movedBy(u.id, expected)) broken.push(`${describeUpdate(u)} answered ${(u.answer.value as OperationState).status} but did not move the operation to ${expected}`);
    if (u.name === 'payerPayment') {
      const { titleId, payment } = sentPayment(u);
      const applied = under.world.title(titleId).applied.get(payment.externalId);
      if (!applied || applied.toString() !== (u.answer.value as { paidAmountBrl: string }).paidAmountBrl) broken.push(`${describeUpdate(u)} answered as applied but the ledger has ${applied ?? 'nothing'}`);
    }
  }
  return broken;
}

/** Each title: paid + outstanding = face, never below zero, and the workflow's view of it is the ledger's. */
function paymentLedger(under: OperationUnderTest, state: OperationState): string[] {
  const broken: string[] = [];
  for (const title of under.world.titles) {
    if (title.outstanding.isNegative()) broken.push(`${title.titleId} balance below zero: ${title.outstanding}`);
    const applied = Money.sum([...title.applied.values()]);
    if (!applied.equals(title.paid) || !title.paid.plus(title.outstanding).equals(title.face)) {
      broken.push(`${title.titleId}: applied ${applied}, paid ${title.paid}, outstanding ${title.outstanding}, face ${title.face}`);
    }
    const tracked = state.titles.find((t) => t.titleId === title.titleId);
    if (tracked && (tracked.status !== title.status || tracked.outstandingBalance !== title.outstanding.toString())) {
      broken.push(`${title.titleId}: the workflow tracks ${tracked.status} ${tracked.outstandingBalance}, the ledger holds ${title.status} ${title.outstanding}`);
    }
  }
  return broken;
}

export function sentPayment(u: SentUpdate): { titleId: string; payment: { externalId: string; paidAmountBrl: string } } {
  return u.arg as { titleId: string; payment: { externalId: string; paidAmountBrl: string } };
}

/**
 * The operation's books (issue #48): every transaction balances; each bought title's receivable is
 * its open balance while open and zero once closed (overdue with recourse: its payable holds the
 * open balance); while open, its discount income is its accrual schedule up to the latest daily
 * accrual's date and its unearned discount the rest, and once closed all of it is earned; the price is
 * owed to the assignor until its PIX settles; a cancelled or denied operation leaves every account
 * of it at zero.
 */
function booksAtRest(world: OperationWorld): string[] {
  const { books } = world;
  const broken = books.unbalanced().map((key) => `ledger transaction ${key} does not balance`);
  const holds = (account: string, actual: Money, wanted: Money) => {
    if (!actual.equals(wanted)) broken.push(`${account} holds ${actual}, not ${wanted} (operation ${world.status})`);
  };
  const released = world.status === 'DENIED' || world.status === 'CANCELLED';
  for (const title of world.titles) {
    const receivable = `title_receivable:${title.titleId}`;
    const unearned = `unearned_discount:${title.titleId}`;
    const income = (wanted: Money) => holds(`discount income of ${title.titleId}`, books.incomeOf(title.titleId), wanted);
    if (released || !books.hasAcquired(title.titleId)) {
      holds(receivable, books.posted(receivable), Money.ZERO);
      holds(unearned, books.posted(unearned), Money.ZERO);
      income(Money.ZERO);
    } else if (title.status === 'WAITING_PAYMENT' || title.status === 'PARTIALLY_PAID') {
      const earned = world.incomeByLatestAccrual(title);
      holds(receivable, books.posted(receivable), title.outstanding);
      holds(unearned, books.posted(unearned), title.discount.minus(earned));
      income(earned);
    } else {
      holds(receivable, books.posted(receivable), Money.ZERO);
      holds(unearned, books.posted(unearned), Money.ZERO);
      income(title.discount);
      if (title.status === 'OVERDUE') holds(`assignor_payable:${title.titleId}-payable`, books.posted(`assignor_payable:${title.titleId}-payable`), title.outstanding);
    }
  }
  const price = `assignor_price_payable:${world.operationId}`;
  if (released || world.status === 'PAID' || world.status === 'SETTLED') holds(price, books.posted(price), Money.ZERO);
  return broken;
}
