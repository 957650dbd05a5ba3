import { ApplicationFailure, Context } from '@temporalio/activity';
import { REGISTRAR_NO_ANSWER, type RegistrationRefusal } from '../../activities/registration';
import { actCancelKey, DEFAULT_NEGOTIATION_TYPE, paymentInformKey, titleActKey } from '../../domain/escriturador/negotiation';
import type { RefusalReason } from '../../domain/escriturador/port';
import { duplicataOfTitle, RECEIVABLE_ENCUMBERED, type RegistrationStatus } from '../../domain/escriturador/registration';
import { Money } from '../../domain/money';
import { RegistrarError } from '../../providers/provider-errors';
import { PAYMENT_INFORM_RETRY } from '../../workflows/operation/proxies';
import type { EscrituradorLane } from './escriturador-lane';

/** The model's assignor: the issuer inside every NF-e key of the model (sefaz-world.ts `nfeKeyOf`), first holder of its duplicatas. */
const ASSIGNOR_DOCUMENT = '11222333000181';
/** The originator's holder, whom our acquisitions make holder. */
const HOLDER_DOCUMENT = '11444777000161';
/** Another financier, whom the sandbox's transfer control makes holder. */
const COMPETITOR_DOCUMENT = '45723174000110';
/** Long enough to outlast any run: the model ends an outage itself. */
const OUTAGE_SECONDS = 86_400;

/** A title whose NF-e (model 55) has a duplicata at the escriturador. */
export interface RegistrableTitle {
  titleId: string;
  externalId: string;
  key: string;
}

/** Our act on one title's duplicata, as the stand-in records it (the `title_registrations` row). */
interface OurAct {
  duplicataId: string;
  actId: string | null;
  status: RegistrationStatus;
}

/** What the workflow tells the escriturador after payout: a payment applied, or a title gone back to the assignor. */
type News = { titleId: string; news: string };

/**
 * The escriturador as a model run sees it: the lane's sandbox escriturador, asked over HTTP
 * through the production adapter, and our acts on the operation's duplicatas as the registration
 * activities record them. The stand-ins act through it the way activities/registration.ts does
 * (the same keys, the same reading of a refusal); the invariants read the sandbox's own books.
 */
export class RegistrarWorld {
  down = false;
  /** A call failed for want of an answer and its activity will try again: time must move for it once the escriturador is back. */
  awaitingRetry = false;
  /** Calls that got no answer (the escriturador down). */
  unanswered = 0;
  readonly acts = new Map<string, OurAct>();
  readonly refusals: RegistrationRefusal[] = [];
  /** NF-e keys the competitor acquired while the assignor still held them, and attempts that came after our act. */
  readonly competitorFirst = new Set<string>();
  competitorTooLate = 0;
  /** News given up on after the activity's last try: the escriturador's record of those titles lags ours (left to the daily reconciliation). */
  private readonly untold = new Map<string, Set<string>>();

  constructor(private readonly lane: EscrituradorLane, readonly titles: RegistrableTitle[], faces: ReadonlyMap<string, Money>, private readonly dueDate: string) {
    // As if the seller had issued each NF-e's duplicata at its escriturador before offering it.
    for (const { titleId, key } of titles) lane.book.issue(key, [{ installment: '001', dueDate, value: faces.get(titleId)!.toString() }]);
  }

  /** Every title's acquisition in turn; the first refusal ends it (activities/registration.ts `registerOperationActs`). */
  async register(): Promise<{ refusal: RegistrationRefusal | null }> {
    for (const title of this.titles) {
      const reason = await this.registerTitle(title);
      if (!reason) continue;
      const refusal = { titleId: title.titleId, externalId: title.externalId, key: title.key, reason };
      if (!this.refusals.some((r) => r.titleId === title.titleId)) this.refusals.push(refusal);
      return { refusal };
    }
    return { refusal: null };
  }

  private async registerTitle({ titleId, key }: RegistrableTitle): Promise<RefusalReason | null> {
    let act = this.acts.get(titleId);
    if (!act) {
      const duplicata = duplicataOfTitle(await this.ask(() => this.lane.client.lookup(key), true), this.dueDate);
      if (!duplicata) return 'not_holder';
      act = { duplicataId: duplicata.duplicataId, actId: null, status: 'requested' };
      this.acts.set(titleId, act);
    }
    if (act.status === 'refused') return this.refusals.find((r) => r.titleId === titleId)!.reason;
    if (act.status !== 'requested') return null;
    const outcome = await this.ask(() => this.transfer(titleId, act.duplicataId), true);
    if (outcome.outcome === 'refused') {
      act.status = 'refused';
      return outcome.reason;
    }
    Object.assign(act, { actId: outcome.act.actId, status: 'registered' });
    return null;
  }

  private transfer(titleId: string, duplicataId: string) {
    return this.lane.client.negotiate({
      kind: 'transfer', duplicataId, fromDocument: ASSIGNOR_DOCUMENT, toDocument: HOLDER_DOCUMENT, negotiationType: DEFAULT_NEGOTIATION_TYPE,
    }, titleActKey(titleId));
  }

  /** The operation fell through: each act cancelled, one whose request went unanswered asked again under its key first. */
  async cancelAll(): Promise<void> {
    for (const act of this.acts.values()) {
      if (act.status !== 'requested' && act.status !== 'registered') continue;
      if (act.actId === null) {
        const titleId = [...this.acts].find(([, a]) => a === act)![0];
        const outcome = await this.ask(() => this.transfer(titleId, act.duplicataId), true);
        act.actId = outcome.outcome === 'registered' ? outcome.act.actId : null;
      }
      const { actId } = act;
      if (actId !== null) await this.ask(() => this.lane.client.cancelAct(actId, actCancelKey(actId)), true);
      act.status = 'cancelled';
    }
  }

  /** A payment applied to a registered title, informed once under its key; paid in full, our record is settled. */
  async inform({ titleId, paymentId, amount, paidAt, paidInFull }: { titleId: string; paymentId: string; amount: string; paidAt: string; paidInFull: boolean }): Promise<void> {
    const act = this.acts.get(titleId);
    if (act?.status !== 'registered') return;
    await this.telling({ titleId, news: paymentId }, () => this.ask(() => this.lane.client.informPayment(act.duplicataId, amount, paidAt, paymentInformKey(titleId, paymentId)).catch((err: unknown) => {
      if (err instanceof RegistrarError && err.refusalCode === 'duplicata_settled') return null;
      throw err;
    }), false));
    if (paidInFull) act.status = 'settled';
  }

  /** A title gone back to the assignor by recourse: our act cancelled. */
  async cancelTitle(titleId: string): Promise<void> {
    const act = this.acts.get(titleId);
    const actId = act?.actId ?? null;
    if (act?.status !== 'registered' || actId === null) return;
    await this.telling({ titleId, news: 'recourse' }, () => this.ask(() => this.lane.client.cancelAct(actId, actCancelKey(actId)), false));
    act.status = 'cancelled';
  }

  /**
   * Another financier acquires the NF-e's duplicatas through the sandbox's control, if it can still
   * get there first: once our act is in force no real escriturador lets anyone but us negotiate it.
   */
  async competitorAcquires(key: string): Promise<void> {
    if (this.lane.book.lookup(key).some((d) => d.holderDocument !== ASSIGNOR_DOCUMENT)) {
      this.competitorTooLate += 1;
      return;
    }
    await this.lane.controls.transferAway(key, COMPETITOR_DOCUMENT);
    this.competitorFirst.add(key);
  }

  /** The sandbox's outage control: every connection refused until the model ends it. */
  async setDown(down: boolean): Promise<void> {
    await this.lane.controls.outage(down ? OUTAGE_SECONDS : 0);
    this.down = down;
  }

  /** A PIX is ordered: every title whose act the escriturador does not show in force for us, in words. */
  pixOrdered(): string[] {
    return this.titles.flatMap(({ titleId }) => {
      const act = this.acts.get(titleId);
      const atEscriturador = act?.actId ? this.lane.book.actsOf(act.duplicataId).find((a) => a.actId === act.actId) : undefined;
      const inForce = act?.status === 'registered' && atEscriturador?.status === 'registered' && this.lane.book.find(act.duplicataId).holderDocument === HOLDER_DOCUMENT;
      return inForce ? [] : [`${titleId}'s act is not in force (ours: ${act?.status ?? 'none'}, at the escriturador: ${atEscriturador?.status ?? 'none'})`];
    });
  }

  /** Our acts the sandbox escriturador holds in force on the duplicatas of the operation's NF-es. */
  actsInForce(): string[] {
    return this.titles.flatMap(({ key }) => this.lane.book.lookup(key).flatMap((d) => this.lane.book.actsOf(d.duplicataId)))
      .filter((act) => act.status === 'registered' && act.toDocument === HOLDER_DOCUMENT).map((act) => act.actId);
  }

  /** The escriturador's paid amount and settlement of a title's duplicata; null before our lookup found it. */
  duplicataOf(titleId: string): { paidAmount: string; settled: boolean } | null {
    const act = this.acts.get(titleId);
    return act ? this.lane.book.find(act.duplicataId) : null;
  }

  lags(titleId: string): boolean {
    return (this.untold.get(titleId)?.size ?? 0) > 0;
  }

  private async telling(news: News, tell: () => Promise<unknown>): Promise<void> {
    const pending = this.untold.get(news.titleId) ?? new Set<string>();
    this.untold.set(news.titleId, pending);
    pending.add(news.news);
    await tell();
    pending.delete(news.news);
  }

  /**
   * One call to the escriturador, its failures read as the activity reads them: with `waits`, any
   * (the operation waits before the PIX, or its cancellation waits); without, a refusal is final
   * and only a transient failure is tried again, at most as often as the workflow's policy allows.
   */
  private async ask<T>(call: () => Promise<T>, waits: boolean): Promise<T> {
    try {
      const answer = await call();
      this.awaitingRetry = false;
      return answer;
    } catch (err) {
      if (!(err instanceof RegistrarError)) throw err;
      if (err.retryable) this.unanswered += 1;
      const retried = waits || (err.retryable && Context.current().info.attempt < PAYMENT_INFORM_RETRY.maximumAttempts!);
      this.awaitingRetry = retried;
      if (!retried) throw ApplicationFailure.nonRetryable(err.message, err.code);
      throw ApplicationFailure.retryable(`escriturador: ${err.message}`, waits ? REGISTRAR_NO_ANSWER : err.code);
    }
  }
}

/**
 * What must hold at rest of an operation and our acts at the escriturador (`stalled`: the providers
 * hold their calls): a refusal ends the operation CANCELLED with `receivable_encumbered` before any
 * PIX, and only where the competitor got there first; a cancelled or denied operation leaves no act
 * of ours in force; a title paid in full has its registration settled and its duplicata paid at the
 * escriturador, one gone back to the assignor has our act cancelled (unless the news was given up
 * on during an outage); the escriturador never counts more paid than the title was.
 */
export function registrarBrokenAtRest(
  registrar: RegistrarWorld, world: { status: string; cancellationReason: string | null; pixOrders: number; titles: readonly { titleId: string; status: string; paid: Money }[] }, stalled: boolean,
): string[] {
  const broken: string[] = [];
  const refusal = registrar.refusals[0];
  if (refusal) {
    if (world.pixOrders > 0) broken.push(`the escriturador refused ${refusal.titleId} (${refusal.reason}), yet ${world.pixOrders} PIX were ordered`);
    const cancelling = stalled && world.status === 'SIGNED';
    if (!cancelling && !(world.status === 'CANCELLED' && world.cancellationReason === RECEIVABLE_ENCUMBERED)) {
      broken.push(`the escriturador refused ${refusal.titleId} (${refusal.reason}), yet the operation is ${world.status} with cancellation_reason ${world.cancellationReason}`);
    }
    for (const r of registrar.refusals) {
      if (!registrar.competitorFirst.has(r.key) || r.reason !== 'already_transferred') broken.push(`${r.titleId} refused (${r.reason}) though no competitor acquired its NF-e ${r.key} first`);
    }
  } else if (world.cancellationReason === RECEIVABLE_ENCUMBERED) {
    broken.push('the operation is CANCELLED with receivable_encumbered, yet the escriturador refused nothing');
  }
  if (world.status === 'CANCELLED' || world.status === 'DENIED') {
    const inForce = registrar.actsInForce();
    if (inForce.length > 0) broken.push(`the operation is ${world.status}, yet acts of ours are in force at the escriturador: ${inForce.join(', ')}`);
  }
  const told = !stalled && !registrar.down;
  for (const title of world.titles) {
    const act = registrar.acts.get(title.titleId);
    const duplicata = registrar.duplicataOf(title.titleId);
    if (!act || !duplicata) continue;
    if (Money.of(duplicata.paidAmount).gt(title.paid)) broken.push(`the escriturador counts ${duplicata.paidAmount} paid on ${title.titleId}, which was paid ${title.paid}`);
    if (act.status === 'settled' && (!duplicata.settled || title.status !== 'PAID')) {
      broken.push(`${title.titleId}'s registration is settled while the title is ${title.status} and the escriturador counts ${duplicata.paidAmount} paid (settled: ${duplicata.settled})`);
    }
    if (!told || registrar.lags(title.titleId)) continue;
    if (title.status === 'PAID' && act.status === 'registered') broken.push(`${title.titleId} is paid in full, yet its registration is still registered, not settled`);
    if (title.status === 'OVERDUE' && act.status === 'registered') broken.push(`${title.titleId} went back to the assignor by recourse, yet our act is still in force`);
  }
  return broken;
}
