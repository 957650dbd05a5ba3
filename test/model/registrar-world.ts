import { ApplicationFailure, Context } from '@temporalio/activity';
import { REGISTRAR_NO_ANSWER, type RegistrationRefusal } from '../../activities/registration';
import { actCancelKey, DEFAULT_NEGOTIATION_TYPE, paymentInformKey, titleActKey } from '../../domain/escriturador/negotiation';
import type { EscrituradorEvent, RefusalReason } from '../../domain/escriturador/port';
import { duplicataOfTitle, RECEIVABLE_ENCUMBERED, type RegistrationStatus } from '../../domain/escriturador/registration';
import {
  appliedOutcome, settlementExternalId, settlementIsOurs, settlementPayment, TITLE_CLOSED_REFUSALS, type SettlementEvent,
} from '../../domain/escriturador/settlement';
import type { PayerPaymentInput, PaymentChannel } from '../../domain/lifecycle-messages';
import { Money } from '../../domain/money';
import { CLOSED_TITLE_STATUSES, type TitleStatus } from '../../domain/title-rules';
import type { RegistrarEventOutcome } from '../../api/registrar/webhook-events';
import { RegistrarError } from '../../providers/provider-errors';
import { PAYMENT_INFORM_RETRY } from '../../workflows/operation/proxies';
import type { EscrituradorLane } from './escriturador-lane';
import { paymentIdOf } from './world';

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

/** A title as the read model holds it (world.ts `WorldTitle`). */
export interface TitleAtDelivery {
  titleId: string;
  status: TitleStatus;
  outstanding: Money;
  paid: Money;
  applied: ReadonlyMap<string, Money>;
}

/** The workflow's answer to a payer-payment update: applied, refused with a code, or none yet (the route's call would time out, 503). */
type UpdateAnswer = { ok: true } | { ok: false; code: string } | null;

/** How the route answered a delivery: 2xx with an outcome, or an error (a refusal's code, or none in time), which the escriturador delivers again. */
export type DeliveryOutcome = RegistrarEventOutcome | `error: ${string}`;

/** The outcomes the route answers 2xx with: the event applied or ignored, never to come again. */
const ANSWERED: readonly DeliveryOutcome[] = ['applied', 'applied_in_part', 'title_closed', 'informed_by_us', 'not_ours', 'recorded'];
/** The errors that only say "not yet": the title is not payable before PAID, or the workflow did not answer within the route's wait. */
const NOT_YET: readonly DeliveryOutcome[] = ['error: title_not_payable_yet', 'error: no answer in time'];

/**
 * When a webhook reaches us: `at once`; `late`, after what it tells of moved on; `again`, once more
 * because our first answer was lost before the route recorded it (so the handler runs again on what
 * stands now); `after the run`, what the escriturador still held once the workflow completed.
 */
export type Arrival = 'at once' | 'late' | 'again' | 'after the run';

/** One delivery of an escriturador event, and the titles closed when it arrived (a webhook must leave them as they were). */
export interface WebhookDelivery {
  event: EscrituradorEvent;
  arrival: Arrival;
  outcome: DeliveryOutcome;
  closedTitles: { titleId: string; status: TitleStatus; paid: string }[];
}

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
  /** Titles whose act we cancelled: nothing may put it back in force. */
  private readonly cancelledByUs = new Set<string>();
  /** The escriturador's webhooks as they reached us, and the ids of the events answered 2xx. */
  readonly deliveries: WebhookDelivery[] = [];
  private readonly answered = new Set<string>();
  /** Titles whose registration a settlement event marked settled (the duplicata paid in full at the escriturador, whoever paid our title). */
  private readonly settledByEvent = new Set<string>();
  /** Payments the payer made at the escriturador (its boleto dinâmico) while our act held the duplicata. */
  payerPaidThere = 0;
  /** The run is over and every event not answered yet was delivered once more. */
  drained = false;
  private readonly firstEvent: number;

  constructor(private readonly lane: EscrituradorLane, readonly titles: RegistrableTitle[], faces: ReadonlyMap<string, Money>, private readonly dueDate: string) {
    // The lane's runs go one at a time: the events published from here on are this run's.
    this.firstEvent = lane.published.length;
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
    for (const [titleId, act] of this.acts) {
      if (act.status !== 'requested' && act.status !== 'registered') continue;
      if (act.actId === null) {
        const outcome = await this.ask(() => this.transfer(titleId, act.duplicataId), true);
        act.actId = outcome.outcome === 'registered' ? outcome.act.actId : null;
      }
      const { actId } = act;
      if (actId !== null) await this.ask(() => this.lane.client.cancelAct(actId, actCancelKey(actId)), true);
      act.status = 'cancelled';
      this.cancelledByUs.add(titleId);
    }
  }

  /**
   * A payment applied to a registered title, informed once under its key (not one the escriturador
   * reported itself: told back, it would count twice there); paid in full, our record is settled.
   */
  async inform({ titleId, paymentId, amount, paidAt, paidInFull }: { titleId: string; paymentId: string; amount: string; paidAt: string; paidInFull: boolean }, reportedByIt: boolean): Promise<void> {
    const act = this.acts.get(titleId);
    if (act?.status !== 'registered') return;
    if (!reportedByIt) await this.telling({ titleId, news: paymentId }, () => this.ask(() => this.lane.client.informPayment(act.duplicataId, amount, paidAt, paymentInformKey(titleId, paymentId)).catch((err: unknown) => {
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
    this.cancelledByUs.add(titleId);
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

  /**
   * The payer pays a title's boleto dinâmico at the escriturador (the sandbox's control): `whole`
   * what it counts open, else about half of it. Only while our act holds the duplicata: the
   * boleto then pays us, and the escriturador publishes the webhook answered here.
   */
  async payerPays(titleId: string, whole: boolean): Promise<EscrituradorEvent | null> {
    if (!this.payableThere(titleId)) return null;
    const duplicata = this.lane.book.find(this.acts.get(titleId)!.duplicataId);
    const open = Money.of(duplicata.value).minus(Money.of(duplicata.paidAmount));
    const amount = whole ? open : Money.fromCents(open.cents.dividedToIntegerBy(2).plus(1));
    await this.lane.controls.payerPays(duplicata.nfeKey, duplicata.installment, amount.toString());
    this.payerPaidThere += 1;
    return this.lane.published[this.lane.published.length - 1];
  }

  /** Our act holds the title's duplicata at the escriturador, which still counts some of it open: its boleto pays us. */
  payableThere(titleId: string): boolean {
    const act = this.acts.get(titleId);
    return act !== undefined && this.inForce(act) && !this.lane.book.find(act.duplicataId).settled;
  }

  /** This run's events from the escriturador, oldest first: those on the duplicatas of its NF-es. */
  webhooks(): EscrituradorEvent[] {
    const keys = new Set(this.titles.map((t) => t.key));
    return this.lane.published.slice(this.firstEvent)
      .filter((event) => keys.has(event.type === 'duplicata.settled' ? event.nfeKey : this.lane.book.find(event.act.duplicataId).nfeKey));
  }

  /** The payer's payments at the escriturador on a title's duplicata, as their webhooks tell them, oldest first. */
  settlementsOf(titleId: string): SettlementEvent[] {
    const act = this.acts.get(titleId);
    return this.webhooks().filter((e): e is SettlementEvent => e.type === 'duplicata.settled' && e.origin === 'payer' && e.duplicataId === act?.duplicataId);
  }

  /** Events not answered 2xx yet (never delivered, or answered with an error): the escriturador will deliver them. */
  pendingWebhooks(): EscrituradorEvent[] {
    return this.webhooks().filter((event) => !this.answered.has(event.eventId));
  }

  answeredWebhooks(): EscrituradorEvent[] {
    return this.webhooks().filter((event) => this.answered.has(event.eventId));
  }

  /**
   * One delivery of `event` as the route's handler takes it (api/registrar/webhook-events.ts), our
   * acts standing in for its rows: an act's news changes nothing; a settlement of a duplicata our
   * act holds is paid to the title through `pay`, the workflow's payer-payment update with the
   * arguments the route sends, and settles our registration once the duplicata is paid in full.
   */
  async deliver(event: EscrituradorEvent, arrival: Arrival, titles: readonly TitleAtDelivery[], pay: (titleId: string, payment: PayerPaymentInput) => Promise<UpdateAnswer>): Promise<void> {
    const closedTitles = titles.filter((t) => CLOSED_TITLE_STATUSES.includes(t.status)).map((t) => ({ titleId: t.titleId, status: t.status, paid: t.paid.toString() }));
    const outcome = event.type === 'duplicata.settled' ? await this.settle(event, titles, pay) : 'recorded';
    this.deliveries.push({ event, arrival, outcome, closedTitles });
    // Answered with an error, the escriturador takes it as undelivered and delivers it again.
    if (ANSWERED.includes(outcome)) this.answered.add(event.eventId);
    else this.answered.delete(event.eventId);
  }

  private async settle(event: SettlementEvent, titles: readonly TitleAtDelivery[], pay: (titleId: string, payment: PayerPaymentInput) => Promise<UpdateAnswer>): Promise<DeliveryOutcome> {
    const [titleId, act] = [...this.acts].find(([, a]) => a.duplicataId === event.duplicataId) ?? [null, null];
    if (!titleId || !settlementIsOurs(act.status)) return 'not_ours';
    const outcome = event.origin === 'holder' ? 'informed_by_us' : await this.payTitle(event, titles.find((t) => t.titleId === titleId)!, pay);
    if (!ANSWERED.includes(outcome)) return outcome;
    if (event.settled) {
      act.status = 'settled';
      this.settledByEvent.add(titleId);
    }
    return outcome;
  }

  private async payTitle(event: SettlementEvent, title: TitleAtDelivery, pay: (titleId: string, payment: PayerPaymentInput) => Promise<UpdateAnswer>): Promise<DeliveryOutcome> {
    const earlier = title.applied.get(settlementExternalId(event.eventId));
    if (earlier) return appliedOutcome(event, earlier.toString());
    const payment = settlementPayment(event, { status: title.status, outstandingBalance: title.outstanding.toString() });
    if (!payment) return 'title_closed';
    const answer = await pay(title.titleId, payment);
    if (!answer) return 'error: no answer in time';
    if (!answer.ok) return TITLE_CLOSED_REFUSALS.includes(answer.code) ? 'title_closed' : `error: ${answer.code}`;
    return appliedOutcome(event, payment.paidAmountBrl);
  }

  /** Deliveries so far by arrival, event type and outcome, for the coverage line. */
  deliveryCounts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const { event, arrival, outcome } of this.deliveries) {
      const name = `${arrival} ${event.type} ${outcome}`;
      counts.set(name, (counts.get(name) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * What the escriturador's webhooks must leave as they found: each delivery answered (applied or
   * ignored; an error only while the title cannot take it yet), each settlement paid to our title
   * at most once and never above what the payer paid there, a title closed when one arrived as it
   * was, an act we cancelled cancelled (ours and the escriturador's), and with `drained` (the run
   * over, every event delivered once more) no event left without a 2xx answer.
   */
  webhooksBroken(titles: readonly TitleAtDelivery[], paymentChannels: ReadonlyMap<string, PaymentChannel>): string[] {
    const broken: string[] = [];
    for (const title of titles) {
      const paidThere = Money.sum(this.settlementsOf(title.titleId).map((e) => Money.of(e.amount)));
      const fromThere = Money.sum([...title.applied].filter(([externalId]) => paymentChannels.get(paymentIdOf(title.titleId, externalId)) === 'REGISTRAR').map(([, amount]) => amount));
      if (fromThere.gt(paidThere)) broken.push(`${title.titleId} took ${fromThere} from the escriturador's settlements, whose payer paid ${paidThere} there`);
    }
    for (const { event, arrival, outcome, closedTitles } of this.deliveries) {
      if (!ANSWERED.includes(outcome) && !NOT_YET.includes(outcome)) broken.push(`${event.type} ${event.eventId}, arriving ${arrival}, was answered ${outcome}: neither applied nor ignored`);
      for (const closed of closedTitles) {
        const now = titles.find((t) => t.titleId === closed.titleId)!;
        if (now.status !== closed.status || now.paid.toString() !== closed.paid) {
          broken.push(`${closed.titleId} was ${closed.status} with ${closed.paid} paid when ${event.type} ${event.eventId} arrived (${outcome}), and is ${now.status} with ${now.paid} paid now`);
        }
      }
    }
    for (const titleId of this.cancelledByUs) {
      const act = this.acts.get(titleId)!;
      const there = act.actId ? this.actThere(act)?.status : 'cancelled';
      if (act.status !== 'cancelled' || there !== 'cancelled') broken.push(`we cancelled ${titleId}'s act, yet ours says ${act.status} and the escriturador's ${there}`);
    }
    if (this.drained) {
      for (const event of this.pendingWebhooks()) {
        const tried = this.deliveries.filter((d) => d.event.eventId === event.eventId).map((d) => d.outcome);
        broken.push(`${event.type} ${event.eventId} was never answered 2xx (its deliveries: ${tried.join(', ') || 'none'})`);
      }
    }
    return broken;
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
      return act?.status === 'registered' && this.inForce(act) ? [] : [`${titleId}'s act is not in force (ours: ${act?.status ?? 'none'}, at the escriturador: ${(act && this.actThere(act)?.status) ?? 'none'})`];
    });
  }

  private actThere(act: OurAct) {
    return act.actId ? this.lane.book.actsOf(act.duplicataId).find((a) => a.actId === act.actId) : undefined;
  }

  /** The escriturador holds our act in force: registered there, and the duplicata's holder ours. */
  private inForce(act: OurAct): boolean {
    return this.actThere(act)?.status === 'registered' && this.lane.book.find(act.duplicataId).holderDocument === HOLDER_DOCUMENT;
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

  /**
   * What the payer paid at the escriturador on a title's duplicata that our title did not take
   * (its event not delivered yet, or the title closed meanwhile, or only in part): the
   * escriturador counts it, our title does not.
   */
  paidThereNotTaken(title: TitleAtDelivery): Money {
    return Money.sum(this.settlementsOf(title.titleId).map((e) => Money.of(e.amount).minus(title.applied.get(settlementExternalId(e.eventId)) ?? Money.ZERO)));
  }

  settledByItsEvent(titleId: string): boolean {
    return this.settledByEvent.has(titleId);
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
 * on during an outage); the escriturador never counts more paid than the title was, but for what
 * its payer paid there and the title did not take (its webhook late, or the title closed
 * meanwhile); and the escriturador's webhooks broke nothing (RegistrarWorld.webhooksBroken).
 */
export function registrarBrokenAtRest(
  registrar: RegistrarWorld,
  world: { status: string; cancellationReason: string | null; pixOrders: number; titles: readonly TitleAtDelivery[]; paymentChannels: ReadonlyMap<string, PaymentChannel> },
  stalled: boolean,
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
  broken.push(...registrar.webhooksBroken(world.titles, world.paymentChannels));
  const told = !stalled && !registrar.down;
  for (const title of world.titles) {
    const act = registrar.acts.get(title.titleId);
    const duplicata = registrar.duplicataOf(title.titleId);
    if (!act || !duplicata) continue;
    const notTaken = registrar.paidThereNotTaken(title);
    if (Money.of(duplicata.paidAmount).minus(notTaken).gt(title.paid)) {
      broken.push(`the escriturador counts ${duplicata.paidAmount} paid on ${title.titleId} (${notTaken} of it paid there and not taken by the title), which was paid ${title.paid}`);
    }
    if (act.status === 'settled' && (!duplicata.settled || (title.status !== 'PAID' && !registrar.settledByItsEvent(title.titleId)))) {
      broken.push(`${title.titleId}'s registration is settled while the title is ${title.status} and the escriturador counts ${duplicata.paidAmount} paid (settled: ${duplicata.settled})`);
    }
    if (!told || registrar.lags(title.titleId)) continue;
    if (title.status === 'PAID' && act.status === 'registered') broken.push(`${title.titleId} is paid in full, yet its registration is still registered, not settled`);
    if (title.status === 'OVERDUE' && act.status === 'registered') broken.push(`${title.titleId} went back to the assignor by recourse, yet our act is still in force`);
  }
  return broken;
}
