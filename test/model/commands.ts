import fc from 'fast-check';
import type { LifecycleStatus } from '../../domain/operation-lifecycle';
import type { PayerPaymentInput, TrackedTitle } from '../../domain/lifecycle-messages';
import { Money } from '../../domain/money';
import type { PayerEvent } from '../../domain/sefaz/payer-events';
import type { EscrituradorEvent } from '../../domain/escriturador/port';
import { brokenAtRest, sentPayment } from './invariants';
import type { OperationUnderTest, UpdateName } from './operation-under-test';
import { sefazBrokenAtRest, waitingOutOutage, waitsAtCheck } from './sefaz-world';
import { registrarBrokenAtRest, type Arrival } from './registrar-world';
import type { DispatchMode, OperationWorld, PixMode } from './world';

/** What a model run knows of its operation: what the workflow showed at rest after the last command. */
export interface OperationModel {
  status: LifecycleStatus;
  titles: TrackedTitle[];
  stalled: boolean;
  /** Issue #26: the operation lives on a test clock (its deadlines wait on clock advances, not on timers). */
  onClock: boolean;
  /** How many receivables carry an invoice SEFAZ knows (NF-e or NFC-e), and whether SEFAZ is down. */
  nfes: number;
  sefazDown: boolean;
  /** How many titles have a duplicata at the escriturador (an NF-e, model 55), and whether the escriturador is down. */
  registrable: number;
  registrarDown: boolean;
  /** The escriturador's webhooks of the run not answered 2xx yet, and those answered (which it may deliver again). */
  webhooksPending: number;
  webhooksAnswered: number;
}

/**
 * One thing that can happen to an operation: a request, a provider's callback, time passing. A
 * command acts, waits for the workflow to be at rest, and checks every invariant; a new one is a
 * subclass and a line in OPERATION_COMMANDS.
 */
export abstract class ModelCommand implements fc.AsyncCommand<OperationModel, OperationUnderTest, false> {
  abstract check(model: Readonly<OperationModel>): boolean;
  protected abstract act(model: OperationModel, under: OperationUnderTest): Promise<void>;
  abstract toString(): string;

  async run(model: OperationModel, under: OperationUnderTest): Promise<void> {
    await this.act(model, under);
    await untilWaitingCheckAnswers(model, under);
    await under.atRest();
    await observe(model, under);
  }
}

/** The longest wait between two attempts of a check before the PIX, and of a call to the escriturador (BACKING_CHECK_RETRY in workflows/operation/proxies.ts). */
const CHECK_RETRY_MAX_MS = 300_000;
const DAY_MS = 86_400_000;

/**
 * The check before the PIX (or a call to the escriturador) waits out its retry interval and SEFAZ
 * (or the escriturador) would now answer: time skips to its next attempt. Left alone, the attempt would run whenever the locked server's clock reaches
 * it in real time, unseen in the history, and could move the operation while a command reads it.
 */
async function untilWaitingCheckAnswers(model: OperationModel, under: OperationUnderTest): Promise<void> {
  const { world } = under;
  if (model.stalled) return;
  const sefazWaits = !world.sefaz.down && waitsAtCheck(world.status) && world.sefaz.lastCheck()?.verdict === 'no_verdict';
  const registrarWaits = world.registrar !== null && !world.registrar.down && world.registrar.awaitingRetry;
  if (sefazWaits || registrarWaits) await under.model.advance(CHECK_RETRY_MAX_MS);
}

export async function observe(model: OperationModel, under: OperationUnderTest): Promise<void> {
  const state = await under.state();
  model.status = state.status;
  model.titles = state.titles;
  const { world } = under;
  model.webhooksPending = world.registrar?.pendingWebhooks().length ?? 0;
  model.webhooksAnswered = world.registrar?.answeredWebhooks().length ?? 0;
  const registrarWaits = world.registrar !== null && world.registrar.down && world.registrar.awaitingRetry;
  const broken = [
    ...await brokenAtRest(under, state, model.stalled || waitingOutOutage(world.sefaz) || registrarWaits),
    ...sefazBrokenAtRest(world.sefaz, world.status, world.cancellationReason, model.stalled),
    ...(world.registrar ? registrarBrokenAtRest(world.registrar, { ...world, pixOrders: world.pixPayments.length }, model.stalled) : []),
  ];
  if (broken.length > 0) throw new Error(`invariant broken after the workflow came to rest in ${state.status} (its run ${await under.runActivity()}):\n  - ${broken.join('\n  - ')}`);
}

const live = (model: Readonly<OperationModel>) => !['SETTLED', 'DENIED', 'CANCELLED'].includes(model.status);

/** A request through one of the workflow's updates, sent in any live state: a refusal is an outcome to check too. */
class Request extends ModelCommand {
  constructor(private readonly name: UpdateName, private readonly arg: (id: string) => unknown, private readonly label: string) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return live(m);
  }

  get message(): { name: UpdateName; arg: (id: string) => unknown } {
    return { name: this.name, arg: this.arg };
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    await u.update(this.name, this.arg);
  }

  toString(): string {
    return this.label;
  }
}

/** A cancel once a PIX has failed: the acts already registered at the escriturador go with the operation. */
class CancelAfterFailedPix extends Request {
  override check(m: Readonly<OperationModel>): boolean {
    return m.status === 'DISBURSEMENT_FAILED';
  }
}

/** Approvers by number: with four-eyes (issue #29) two different ones move the operation on, and either may race the other. */
const approver = (n: number) => ({ userId: `approver-${n}`, email: `approver-${n}@example.com` });
const approveBy = (n: number) => new Request('approve', (id) => ({ decidedBy: id, note: null, approver: approver(n) }), `approve by approver ${n}`);
const deny = () => new Request('deny', (id) => ({ decidedBy: id, reason: 'model' }), 'deny');
const cancelRequest = (id: string) => ({ requestedBy: id, reason: null });
const cancel = () => new Request('cancel', cancelRequest, 'cancel');
const retryDisbursement = () => new Request('retryDisbursement', (id) => ({ requestedBy: id }), 'retry the disbursement');
const sendForSignature = (embedded: boolean | null) => new Request('sendForSignature', () => ({ embedded }), `send for signature (embedded ${embedded})`);

/** Two requests sent at the same moment (issue #29's races: two approvers at once, one approver twice, a decision and a cancel). */
class RequestsTogether extends ModelCommand {
  constructor(private readonly requests: readonly Request[]) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return live(m);
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    await u.together(this.requests.map((r) => r.message));
  }

  toString(): string {
    return `together: ${this.requests.join(' + ')}`;
  }
}

/** A signer signs at the provider, which calls back; `all`: every signer left signs. */
class SignersSign extends ModelCommand {
  constructor(private readonly all: boolean) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return m.status === 'CONTRACT_SENT';
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    const { document } = u.world;
    if (document) document.signed = this.all ? document.signers : Math.min(document.signers, document.signed + 1);
    await u.signal('signerSigned');
  }

  toString(): string {
    return (this.all ? 'every signer signs' : 'one signer signs');
  }
}

/** The provider no longer knows the document (expired, deleted): the next check finds it gone. */
class DocumentLost extends ModelCommand {
  check(m: Readonly<OperationModel>): boolean {
    return m.status === 'CONTRACT_SENT';
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    if (u.world.document) u.world.document.lost = true;
    await u.signal('signerSigned');
  }

  toString(): string {
    return 'the provider loses the document';
  }
}

/** How a provider answers from now on: the sandbox's magic values, a provider's bad day. */
class ProviderWillAnswer extends ModelCommand {
  constructor(private readonly set: (world: OperationWorld) => void, private readonly label: string) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return live(m);
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    this.set(u.world);
  }

  toString(): string {
    return this.label;
  }
}

const dispatchWill = (mode: DispatchMode) => new ProviderWillAnswer((w) => { w.dispatchMode = mode; }, `e-sign dispatch will ${mode === 'ok' ? 'work' : 'be refused'}`);
const pixWill = (mode: PixMode) => new ProviderWillAnswer((w) => { w.pixMode = mode; }, `the next PIX order will be ${{ settle: 'settled at once', pending: 'pending', refuse: 'refused' }[mode]}`);

/**
 * What SEFAZ or the escriturador answers from now on: an invoice cancelled by its issuer, a payer's
 * manifestação, a competitor's acquisition of a duplicata, an outage and its end.
 */
class OutsideWillAnswer extends ModelCommand {
  constructor(private readonly applies: (m: Readonly<OperationModel>) => boolean, private readonly set: (m: OperationModel, u: OperationUnderTest) => Promise<void> | void, private readonly label: string) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return live(m) && this.applies(m);
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    await this.set(m, u);
  }

  toString(): string {
    return this.label;
  }
}

const nfeOf = (u: OperationUnderTest, index: number) => u.world.sefaz.nfes[index % u.world.sefaz.nfes.length];
const nfeCancelled = (index: number) => new OutsideWillAnswer((m) => m.nfes > 0, (_m, u) => { nfeOf(u, index).status = 'cancelled'; }, `the issuer cancels invoice ${index + 1} at SEFAZ`);
const payerSays = (event: PayerEvent, index: number) => new OutsideWillAnswer((m) => m.nfes > 0, async (_m, u) => {
  nfeOf(u, index).payerWords.push({ event, at: new Date(await u.model.now()).toISOString() });
}, `the payer of invoice ${index + 1} registers ${event}`);
const sefazDown = (down: boolean) => new OutsideWillAnswer((m) => m.sefazDown !== down, (m, u) => { m.sefazDown = down; u.world.sefaz.down = down; }, down ? 'SEFAZ goes down (cStat 109)' : 'SEFAZ is back');

const registrableOf = (u: OperationUnderTest, index: number) => u.world.registrar!.titles[index % u.world.registrar!.titles.length];
const competitorAcquires = (index: number) => new OutsideWillAnswer((m) => m.registrable > 0, async (_m, u) => {
  await u.world.registrar!.competitorAcquires(registrableOf(u, index).key);
}, `another financier acquires the duplicata of registrable title ${index + 1} at the escriturador`);
const escrituradorDown = (down: boolean) => new OutsideWillAnswer((m) => m.registrable > 0 && m.registrarDown !== down, async (m, u) => {
  await u.world.registrar!.setDown(down);
  m.registrarDown = down;
}, down ? 'the escriturador goes down (connections refused)' : 'the escriturador is back');

/** Delivers `events` in turn to the route's handler (registrar-world.ts `deliver`), whose payer-payment updates the workflow answers. */
export async function deliverWebhooks(u: OperationUnderTest, events: readonly EscrituradorEvent[], arrival: Arrival): Promise<void> {
  const pay = async (titleId: string, payment: PayerPaymentInput) => u.answerOf(await u.update('payerPayment', () => ({ titleId, payment })));
  for (const event of events) await u.world.registrar!.deliver(event, arrival, u.world.titles, pay);
}

/** How the webhook of the payer's payment at the escriturador reaches us: held back (to arrive late), at once, or at once and again (the first answer lost). */
type SettlementNews = 'held back' | 'at once' | 'at once and again';

/** The payer pays a registrable title's boleto dinâmico at the escriturador, which publishes a webhook of it. */
const payerPaysThere = (whole: boolean, index: number, news: SettlementNews) => new OutsideWillAnswer(
  (m) => m.registrable > 0 && !m.registrarDown && ['SIGNED', 'DISBURSING', 'DISBURSEMENT_FAILED', 'PAID'].includes(m.status),
  async (_m, u) => {
    const published = await u.world.registrar!.payerPays(registrableOf(u, index).titleId, whole);
    if (published && news !== 'held back') await deliverWebhooks(u, [published], 'at once');
    if (published && news === 'at once and again') await deliverWebhooks(u, [published], 'again');
  },
  `the payer pays ${whole ? 'all it owes' : 'part'} of registrable title ${index + 1}'s boleto at the escriturador (its webhook ${news})`,
);

/**
 * The escriturador's signed webhook reaches the route: `late`, one not answered yet (after what
 * it tells of: our act known from the activity's answer, the title paid or the act cancelled
 * since); `again`, one answered already, redelivered because the answer was lost before the
 * route recorded it.
 */
class EscrituradorWebhookArrives extends ModelCommand {
  constructor(private readonly delivery: Extract<Arrival, 'late' | 'again'>, private readonly index: number) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return this.delivery === 'again' ? m.webhooksAnswered > 0 : m.webhooksPending > 0;
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    const registrar = u.world.registrar!;
    const events = this.delivery === 'again' ? registrar.answeredWebhooks() : registrar.pendingWebhooks();
    await deliverWebhooks(u, [events[this.index % events.length]], this.delivery);
  }

  toString(): string {
    return `the escriturador's webhook ${this.index + 1} arrives ${this.delivery}`;
  }
}

/** The pending PIX settles or is refused, and the provider calls back. */
class PixAnswers extends ModelCommand {
  constructor(private readonly outcome: 'SETTLED' | 'REJECTED') {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return m.status === 'DISBURSING';
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    for (const payment of u.world.pixPayments) if (payment.status === 'PENDING') payment.status = this.outcome;
    await u.signal('disbursementSettled');
  }

  toString(): string {
    return `the pending PIX is ${this.outcome === 'SETTLED' ? 'settled' : 'refused'}`;
  }
}

type PaymentKind = 'partial' | 'full' | 'over' | 'same external_id again' | 'same external_id, other amount';

/** A payer payment on one of the titles, sized from the balance the workflow last showed (or the face value before PAID). */
class PayerPayment extends ModelCommand {
  constructor(private readonly kind: PaymentKind, private readonly titleIndex: number) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return ['DISBURSING', 'PAID'].includes(m.status) || m.titles.length > 0;
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    const world = u.world.titles[this.titleIndex % u.world.titles.length];
    const outstanding = Money.of(m.titles.find((t) => t.titleId === world.titleId)?.outstandingBalance ?? world.face.toString());
    const earlier = u.updates.filter((x) => x.name === 'payerPayment' && sentPayment(x).titleId === world.titleId).map(sentPayment).pop()?.payment;
    const repeat = this.kind.startsWith('same external_id') && earlier;
    const amount = {
      partial: Money.fromCents(outstanding.cents.dividedToIntegerBy(2).plus(1)),
      full: outstanding,
      over: outstanding.plus(Money.of('1.00')),
      'same external_id again': Money.of(earlier?.paidAmountBrl ?? outstanding.toString()),
      'same external_id, other amount': Money.of('0.01'),
    }[this.kind];
    await u.update('payerPayment', (id) => ({
      titleId: world.titleId,
      payment: { externalId: repeat ? earlier.externalId : id, paidAmountBrl: amount.toString(), paidAt: null, channel: 'SANDBOX', recordedBy: id },
    }));
  }

  toString(): string {
    return `payer pays ${this.kind} on title ${this.titleIndex + 1}`;
  }
}

/** Time passes until just after the next open title's deadline: the overdue timer fires (a due date that was still ahead). */
class PassDueDate extends ModelCommand {
  check(m: Readonly<OperationModel>): boolean {
    return !m.stalled && m.titles.some((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PARTIALLY_PAID');
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    const next = m.titles.filter((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PARTIALLY_PAID').map((t) => Date.parse(t.overdueAt)).sort()[0];
    await u.model.advance(Math.max(1_000, next - (await u.model.now()) + 1_000));
  }

  toString(): string {
    return 'the next due date passes';
  }
}

const openTitles = (m: Readonly<OperationModel>) => m.titles.filter((t) => t.status === 'WAITING_PAYMENT' || t.status === 'PARTIALLY_PAID');

type ClockStep = 'to just past the next deadline' | 'one hour' | 'past every deadline';

/**
 * The operation's test clock advances (issue #26) and the model waits for it to be ready: then
 * every deadline up to the clock's time has been applied, each at its own moment (the stand-in
 * refuses an overdue move at any other), and none after it.
 */
class ClockAdvances extends ModelCommand {
  constructor(private readonly step: ClockStep) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return m.onClock && !m.stalled;
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    const from = Date.parse(u.world.clock!.frozenTime);
    const deadlines = openTitles(m).map((t) => Date.parse(t.overdueAt)).sort((a, b) => a - b);
    const to = {
      'to just past the next deadline': Math.max(from, deadlines[0] ?? from) + 1_000,
      'one hour': from + 3_600_000,
      'past every deadline': Math.max(from, deadlines[deadlines.length - 1] ?? from) + 1_000,
    }[this.step];
    await u.advanceClock(new Date(to).toISOString());
  }

  override async run(model: OperationModel, under: OperationUnderTest): Promise<void> {
    await super.run(model, under);
    const reached = Date.parse(under.world.clock!.frozenTime);
    const late = openTitles(model).filter((t) => Date.parse(t.overdueAt) <= reached);
    if (late.length > 0) throw new Error(`the clock is ready at ${under.world.clock!.frozenTime} with ${late.map((t) => `${t.titleId} (deadline ${t.overdueAt})`).join(', ')} still open`);
  }

  toString(): string {
    return `the test clock advances ${this.step}`;
  }
}

/** Time passes: polls fire (signatures, PIX), the history grows towards continue-as-new. */
class TimePasses extends ModelCommand {
  constructor(private readonly ms: number) {
    super();
  }

  check(m: Readonly<OperationModel>): boolean {
    return !m.stalled;
  }

  protected async act(_m: OperationModel, u: OperationUnderTest): Promise<void> {
    await u.model.advance(this.ms);
  }

  toString(): string {
    return `${this.ms / 1000} s pass`;
  }
}

/**
 * The next 03:10 UTC comes on the run's own time (its test clock's, when it lives on one) and the
 * daily accrual runs then, as the `ledger-accrual` Schedule runs it (worker/schedules.ts).
 */
export class DailyAccrualRuns extends ModelCommand {
  check(m: Readonly<OperationModel>): boolean {
    return !m.stalled && m.status === 'PAID';
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    const from = m.onClock ? Date.parse(u.world.clock!.frozenTime) : await u.model.now();
    const today = new Date(from).setUTCHours(3, 10, 0, 0);
    const next = today > from ? today : today + DAY_MS;
    if (m.onClock) await u.advanceClock(new Date(next).toISOString());
    else await u.model.advance(next - from);
    await u.atRest();
    u.world.runAccrual(next);
  }

  toString(): string {
    return 'the next 03:10 UTC comes and the daily accrual runs';
  }
}

/** The providers stop answering: what the workflow asks them waits until they resume, while other messages arrive. */
class ProvidersStall extends ModelCommand {
  check(m: Readonly<OperationModel>): boolean {
    return !m.stalled && live(m);
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    u.model.gate.stall(u.operationId);
    m.stalled = true;
  }

  toString(): string {
    return 'the providers stall';
  }
}

export class ProvidersResume extends ModelCommand {
  check(m: Readonly<OperationModel>): boolean {
    return m.stalled;
  }

  protected async act(m: OperationModel, u: OperationUnderTest): Promise<void> {
    u.model.gate.resume(u.operationId);
    m.stalled = false;
  }

  toString(): string {
    return 'the providers resume';
  }
}

const weighted = <T>(weight: number, arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T>[] => Array.from({ length: weight }, () => arbitrary);

/** Every command a model run draws from; the repeats weigh what moves an operation forward. */
export const OPERATION_COMMANDS: fc.Arbitrary<ModelCommand>[] = [
  ...weighted(2, fc.constantFrom(1, 2).map(approveBy)),
  fc.constant(deny()),
  ...weighted(2, fc.constantFrom(
    [approveBy(1), approveBy(2)], [approveBy(2), approveBy(2)], [approveBy(1), deny()],
  ).map((requests) => new RequestsTogether(requests))),
  ...weighted(2, fc.constant(cancel())),
  ...weighted(3, fc.boolean().map((all) => new SignersSign(all))),
  fc.constant(new DocumentLost()),
  fc.constantFrom<DispatchMode>('ok', 'refuse').map(dispatchWill),
  fc.constantFrom(null, true, false).map(sendForSignature),
  fc.constantFrom<PixMode>('settle', 'pending', 'refuse').map(pixWill),
  ...weighted(2, fc.constantFrom('SETTLED' as const, 'REJECTED' as const).map((outcome) => new PixAnswers(outcome))),
  fc.constant(retryDisbursement()),
  ...weighted(2, fc.constant(new CancelAfterFailedPix('cancel', cancelRequest, 'cancel after the PIX failed'))),
  ...weighted(4, fc.tuple(fc.constantFrom<PaymentKind>('partial', 'full', 'over', 'same external_id again', 'same external_id, other amount'), fc.nat(2))
    .map(([kind, title]) => new PayerPayment(kind, title))),
  ...weighted(2, fc.constant(new PassDueDate())),
  ...weighted(3, fc.constantFrom<ClockStep>('to just past the next deadline', 'one hour', 'past every deadline').map((step) => new ClockAdvances(step))),
  fc.constantFrom(5_000, 60_000, 300_000).map((ms) => new TimePasses(ms)),
  ...weighted(2, fc.constant(new ProvidersStall())),
  ...weighted(3, fc.constant(new ProvidersResume())),
  fc.nat(2).map(nfeCancelled),
  ...weighted(2, fc.tuple(fc.constantFrom<PayerEvent>('confirmed', 'aware', 'unknown_operation', 'not_performed'), fc.nat(2)).map(([event, index]) => payerSays(event, index))),
  ...weighted(2, fc.constant(sefazDown(true))),
  ...weighted(2, fc.constant(sefazDown(false))),
  ...weighted(2, fc.nat(2).map(competitorAcquires)),
  ...weighted(2, fc.constant(escrituradorDown(true))),
  fc.constant(escrituradorDown(false)),
  ...weighted(3, fc.tuple(fc.boolean(), fc.nat(2), fc.constantFrom<SettlementNews>('held back', 'at once', 'at once and again'))
    .map(([whole, index, news]) => payerPaysThere(whole, index, news))),
  ...weighted(3, fc.tuple(fc.constantFrom('late' as const, 'late' as const, 'again' as const), fc.nat(3)).map(([delivery, index]) => new EscrituradorWebhookArrives(delivery, index))),
  ...weighted(3, fc.constant(new DailyAccrualRuns())),
];

const BEFORE_SIGNATURE: readonly LifecycleStatus[] = ['WAITING_APPROVAL', 'PRE_APPROVED', 'APPROVED_DIRECT', 'CONTRACT_SENT', 'CONTRACT_ERROR'];

/**
 * In a run whose payer has paid nothing at the escriturador yet, a registrable title's payer pays
 * there: by the parity of its face, part of its boleto, the webhook delivered at once and again
 * (the first answer lost), or all of it, the webhook held back until the run's end, after the
 * title was paid to us in full (or went back to the assignor, our act cancelled). Null otherwise.
 */
function payingThere(u: OperationUnderTest, titleId: string): ModelCommand | null {
  const { registrar } = u.world;
  const index = registrar?.titles.findIndex((t) => t.titleId === titleId) ?? -1;
  if (!registrar || index < 0 || registrar.payerPaidThere > 0 || !registrar.payableThere(titleId)) return null;
  return u.world.title(titleId).face.cents.mod(2).isZero() ? payerPaysThere(false, index, 'at once and again') : payerPaysThere(true, index, 'held back');
}

/**
 * After the workflow completed, the escriturador delivers every webhook it still holds, and each
 * must be answered 2xx. None reaches the closed workflow (its titles are closed, or our acts
 * cancelled), so only the escriturador's invariants are checked again.
 */
export async function lastWebhooks(u: OperationUnderTest): Promise<void> {
  const { registrar } = u.world;
  if (!registrar) return;
  await deliverWebhooks(u, registrar.pendingWebhooks(), 'after the run');
  registrar.drained = true;
  const broken = [...u.world.violations, ...registrarBrokenAtRest(registrar, { ...u.world, pixOrders: u.world.pixPayments.length }, false)];
  if (broken.length > 0) throw new Error(`invariant broken once the escriturador delivered every webhook left:\n  - ${broken.join('\n  - ')}`);
}

/**
 * The next step towards the operation's end, whatever a run left: what an analyst, the payer and
 * the providers would do. Used after a run's commands, so every run also checks that its workflow
 * reaches an end and completes there.
 */
export function towardsTheEnd(m: Readonly<OperationModel>, u: OperationUnderTest): ModelCommand {
  const open = openTitles(m);
  // Down since before the signature, it is first met by the acts before the PIX, which wait for it to come back.
  if (m.registrarDown && !BEFORE_SIGNATURE.includes(m.status)) return escrituradorDown(false);
  switch (m.status) {
    case 'WAITING_APPROVAL': return approveBy(u.world.approvals.includes(approver(1).userId) ? 2 : 1);
    case 'CONTRACT_ERROR':
      u.world.dispatchMode = 'ok';
      return sendForSignature(null);
    case 'CONTRACT_SENT': return new SignersSign(true);
    // Waiting at the NF-e check: SEFAZ comes back, then time for the check's next retry (5 minutes apart at most).
    case 'SIGNED': return m.sefazDown ? sefazDown(false) : new TimePasses(CHECK_RETRY_MAX_MS);
    case 'DISBURSING': return new PixAnswers('SETTLED');
    case 'DISBURSEMENT_FAILED':
      // For an operation of two titles with acts at the escriturador the analyst gives up (the acts go with it); else retries.
      if (m.registrable > 0 && u.world.titles.length === 2) return cancel();
      // A retry waits at the NF-e check while SEFAZ is down.
      if (m.sefazDown) return sefazDown(false);
      u.world.pixMode = 'settle';
      return retryDisbursement();
    case 'PAID':
      // Twice in a paid run whose open titles fall due days after payout, the daily accrual runs: the second posts on top of the first.
      if (u.world.accrualsRun < 2 && open.some((t) => Date.parse(t.overdueAt) - (u.world.paidOutAt ?? Infinity) > DAY_MS)) return new DailyAccrualRuns();
      if (open.length > 1) return payingThere(u, open[0].titleId) ?? new PayerPayment('full', m.titles.indexOf(open[0]));
      if (open.length === 1) return payingThere(u, open[0].titleId) ?? (m.onClock ? new ClockAdvances('past every deadline') : new PassDueDate());
      return new TimePasses(1_000);
    default: return new TimePasses(1_000);
  }
}
