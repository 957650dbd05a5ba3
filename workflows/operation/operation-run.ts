import { ActivityFailure, ApplicationFailure, condition, continueAsNew, patched, upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { acceptsRequest, LifecycleStatus, PENDING_REQUESTS, PendingRequestKind, settleRequest, WAITING_FOR } from '../../domain/operation-lifecycle';
import { backingCheckActivities, contractActivities, disbursementActivities, localOperationActivities, registrationActivities } from './proxies';
import type { OperationState, OperationWorkflow, OperationWorkflowInput } from './messages';
import { OperationClock } from './clock';
import { RunActivity } from './run-activity';
import { LIFECYCLE_STATUS } from '../../domain/search-attributes';
import type { AuditedRequest } from '../../domain/audit-chain';

/** Cancellations recorded before our acts at the escriturador existed replay without cancelling them. */
export const CANCEL_ACTS_PATCH = 'cancel-registration-acts';

export function refuse(code: string, message: string, detail?: unknown): never {
  throw detail === undefined ? ApplicationFailure.nonRetryable(message, code) : ApplicationFailure.nonRetryable(message, code, detail);
}

/** The failure's code when an activity gave up: its ApplicationFailure type, else `fallback`; null when it is not an activity's failure. */
export function failureCode(err: unknown, fallback: string): string | null {
  if (!(err instanceof ActivityFailure)) return null;
  return err.cause instanceof ApplicationFailure ? err.cause.type ?? fallback : fallback;
}

/** Who asked for a pending request, and why. */
export interface RequestBy {
  requestedBy: string;
  reason: string | null;
  /** A staff request's audit context: the move that honours it writes the row. */
  audit?: AuditedRequest;
}

interface PendingRequest {
  kind: PendingRequestKind;
  by: RequestBy;
  answer: (state: OperationState) => void;
  refuse: (failure: ApplicationFailure) => void;
}

/**
 * One run of the operation workflow: its state and what its handlers and phases tell each other.
 * The phases (phases/) read and move it; the main line (workflow.ts) orders them.
 */
export class OperationRun {
  readonly state: OperationState;
  readonly ops = localOperationActivities();
  readonly contract = contractActivities();
  readonly pix = disbursementActivities();
  readonly backing = backingCheckActivities();
  readonly registrar = registrationActivities();
  /** What the run is writing beside its status: the handlers' validators and the phases' waits ask it. */
  readonly activity = new RunActivity();
  /** Set when the operation lives on a sandbox test clock. */
  readonly clock: OperationClock | null;
  /** The one request the main line is to honour (cancel, retry-disbursement): settled by `setStatus`. */
  private pending: PendingRequest | null = null;

  constructor(readonly input: OperationWorkflowInput) {
    this.state = {
      operationId: input.operationId,
      displayNumber: input.displayNumber,
      status: input.initialStatus,
      waitingFor: 'recording creation',
      contractAttempts: input.resumed?.contractAttempts ?? 0,
      disbursementAttempts: input.resumed?.disbursementAttempts ?? 0,
      lastError: null,
      titles: input.resumed?.titles ?? [],
      approvalsRequired: input.approvalsRequired ?? 1,
      approvals: [],
    };
    this.clock = input.testClock ? new OperationClock({ ...input.testClock }, workflowInfo().workflowId) : null;
  }

  /** The operation's "now": its test clock's time when it has one, else the workflow's (replay-safe) time. */
  now(): Date {
    return this.clock ? this.clock.now() : new Date();
  }

  /** The moment an activity stamps on what it writes: the clock's when there is one, else the activity's own. */
  at(): { at?: string } {
    return this.clock ? { at: this.clock.now().toISOString() } : {};
  }

  /** A fresh run of this operation, resumed at `initialStatus`; on a test clock it carries the clock's time and any advance not answered yet. */
  async continueAsNew(initialStatus: LifecycleStatus, resumed: NonNullable<OperationWorkflowInput['resumed']>): Promise<never> {
    const { clock } = this;
    if (!clock) return continueAsNew<OperationWorkflow>({ ...this.input, initialStatus, resumed });
    await clock.settledSignals();
    return continueAsNew<OperationWorkflow>({ ...this.input, initialStatus, testClock: clock.state, resumed });
  }

  /** Whether `deadline` has come: on a clock, once an advance passed it. */
  hasReached(deadline: string): boolean {
    return this.clock ? this.clock.passed(deadline) : Date.parse(deadline) - Date.now() <= 0;
  }

  /** Waits for `deadline` or `wake`: a server timer in real time; on a clock, an advance past it (no timer). */
  async untilDeadline(deadline: string, wake: () => boolean): Promise<void> {
    const clock = this.clock;
    if (clock) await condition(() => wake() || clock.passed(deadline) || clock.state.deleted);
    else await condition(wake, Date.parse(deadline) - Date.now());
  }

  get workflowId(): string {
    return workflowInfo().workflowId;
  }

  get status(): LifecycleStatus {
    return this.state.status;
  }

  /** The cancellation asked for and not yet settled. */
  get cancelRequested(): RequestBy | null {
    return this.pending?.kind === 'cancel' ? this.pending.by : null;
  }

  get retryRequested(): boolean {
    return this.pending?.kind === 'retryDisbursement';
  }

  /** The audit context of the retry asked for, read before the move that honours (and clears) it. */
  get retryAudit(): AuditedRequest | undefined {
    return this.pending?.kind === 'retryDisbursement' ? this.pending.by.audit : undefined;
  }

  /** Validator of a pending request: refused while another is pending or the state does not accept it. */
  refuseUnlessAccepted(kind: PendingRequestKind): void {
    if (this.activity.writingDecision || this.pending || !acceptsRequest(kind, this.status)) refuse(PENDING_REQUESTS[kind].refusal, `Operation is ${this.status}`);
  }

  /** Holds the request until a move settles it: the state it produced, or its refusal. */
  request(kind: PendingRequestKind, by: RequestBy): Promise<OperationState> {
    return new Promise((answer, refuseWith) => { this.pending = { kind, by, answer, refuse: refuseWith }; });
  }

  /**
   * The workflow's own state, and the search attribute when it changes (no visibility write
   * otherwise). Every move passes here, so this is where the pending request is settled.
   */
  setStatus(status: LifecycleStatus): void {
    this.state.status = status;
    this.state.waitingFor = WAITING_FOR[status];
    if (workflowInfo().typedSearchAttributes.get(LIFECYCLE_STATUS) !== status) upsertSearchAttributes([{ key: LIFECYCLE_STATUS, value: status }]);
    this.settlePending();
  }

  private settlePending(): void {
    const request = this.pending;
    if (!request) return;
    const outcome = settleRequest(request.kind, this.status);
    if (outcome === 'pending') return;
    this.pending = null;
    if (outcome === 'answered') request.answer({ ...this.state });
    else request.refuse(ApplicationFailure.nonRetryable(`Operation is ${this.status}`, PENDING_REQUESTS[request.kind].refusal));
  }

  /**
   * The workflow's own state moves first, so an update validated while the read model is being
   * written already sees the new state (a client reacting to the read model is never refused).
   */
  async moveTo(to: LifecycleStatus, extra: { decidedBy?: string; note?: string | null; errorCode?: string; audit?: AuditedRequest } = {}): Promise<void> {
    this.setStatus(to);
    await this.activity.during({ kind: 'move', to }, () => this.ops.transitionOperation({ operationId: this.input.operationId, workflowId: this.workflowId, to, ...extra, ...this.at() }));
  }

  /**
   * Cancellation, once the phase that saw it is at rest (the one asked for, or the workflow's own
   * from a check before the PIX): the document voided, titles and stock released. A provider that refuses to void (a document signed meanwhile) does not stop the
   * cancellation: `lastError` says so and the document is left for support.
   */
  async finishCancelled(cancel: RequestBy & { cancellationReason?: string } = this.cancelRequested!): Promise<void> {
    try {
      await this.contract.voidContract({ operationId: this.input.operationId });
    } catch (err) {
      const code = failureCode(err, 'esign_void_failed');
      if (code === null) throw err;
      this.state.lastError = code;
    }
    // No act of ours stays in force at the escriturador for an operation that moved no money.
    if (patched(CANCEL_ACTS_PATCH)) await this.registrar.cancelOperationActs({ operationId: this.input.operationId });
    await this.ops.releaseOperation({
      operationId: this.input.operationId, workflowId: this.workflowId, to: 'CANCELLED', actor: cancel.requestedBy, reason: cancel.reason, cancellationReason: cancel.cancellationReason, audit: cancel.audit, ...this.at(),
    });
    this.setStatus('CANCELLED');
  }
}
