import { setTimeout as sleep } from 'node:timers/promises';
import { WorkflowHandle, WorkflowUpdateFailedError, WorkflowUpdateStage } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { OperationState, OperationWorkflowInput } from '../../workflows/operation/messages';
import { advanceClockUpdate, deleteClockSignal, TestClockWorkflowInput, testClockStateQuery } from '../../workflows/test-clock-messages';
import { testClockWorkflowId } from '../../domain/workflow-ids';
import { clockOfOperation } from './stand-in-activities';
import { MODEL_TASK_QUEUE, ModelEnvironment } from './model-environment';
import type { OperationWorld } from './world';
import { StartedTaskWatch } from './wedged-task';

const { EventType } = temporal.api.enums.v1;
const TASK_CLOSED = [EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED, EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED, EventType.EVENT_TYPE_WORKFLOW_TASK_TIMED_OUT];
const ACTIVITY_CLOSED = [
  EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED, EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED, EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT, EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED,
];
const SIGNAL_CLOSED = [EventType.EVENT_TYPE_EXTERNAL_WORKFLOW_EXECUTION_SIGNALED, EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_FAILED];
const RUN_CLOSED = [
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_FAILED, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TERMINATED,
  EventType.EVENT_TYPE_WORKFLOW_EXECUTION_TIMED_OUT, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW, EventType.EVENT_TYPE_WORKFLOW_EXECUTION_CANCELED,
];
/** Longer than any stand-in activity takes: a workflow not at rest by then is stuck in a task, which is a failure of its own. */
const REST_TIMEOUT_MS = 30_000;
/** An update's answer travels by a long poll after the task that settled it: the grace it gets at rest. */
const ANSWER_GRACE_MS = 1_000;
/** The activity of the NF-e check before the PIX (activities/nfe-check.ts). */
const NFE_CHECK_ACTIVITY = 'checkNfesBeforePayout';
/** The activities that call the escriturador (activities/registration.ts). */
const REGISTRAR_ACTIVITIES = ['registerOperationActs', 'cancelOperationActs', 'informRegistrarOfPayment', 'cancelTitleAct'];

export type UpdateName = 'approve' | 'deny' | 'cancel' | 'sendForSignature' | 'retryDisbursement' | 'payerPayment';

/** One update as sent: its id (also its actor), what it asked, and its answer once it came. */
export interface SentUpdate {
  id: string;
  name: UpdateName;
  arg: unknown;
  answer: { ok: true; value: unknown } | { ok: false; code: string } | null;
}

/**
 * The system under test of one model run: its operation's workflow on the shared environment,
 * the OperationWorld its activities write, and every update sent to it with its answer.
 */
export class OperationUnderTest {
  readonly updates: SentUpdate[] = [];
  /** A run of this workflow was seen starting from another's continue-as-new. */
  continuedAsNew = false;
  /** Advances of its test clock that came back ready (issue #26). */
  clockAdvances = 0;
  private readonly answers = new Map<string, Promise<void>>();
  private readonly startedTasks = new StartedTaskWatch();
  private count = 0;

  private constructor(readonly model: ModelEnvironment, readonly world: OperationWorld, readonly handle: WorkflowHandle, private readonly onClock: boolean) {}

  static async start(model: ModelEnvironment, world: OperationWorld, input: Omit<OperationWorkflowInput, 'operationId' | 'initialStatus' | 'testClock'>, onClock: boolean): Promise<OperationUnderTest> {
    model.worlds.set(world.operationId, world);
    const testClock = onClock ? await startClock(model, world) : undefined;
    const handle = await model.env.client.workflow.start('operationWorkflow', {
      taskQueue: MODEL_TASK_QUEUE, workflowId: `operation-${world.operationId}`,
      args: [{ ...input, operationId: world.operationId, initialStatus: world.status, ...(testClock ? { testClock } : {}) }],
    });
    const under = new OperationUnderTest(model, world, model.env.client.workflow.getHandle(handle.workflowId), onClock);
    await under.atRest();
    return under;
  }

  get operationId(): string {
    return this.world.operationId;
  }

  /** Sends an update and waits until the workflow accepted or refused it; its answer is recorded whenever it comes. */
  async update(name: UpdateName, arg: (id: string) => unknown): Promise<SentUpdate> {
    const sent = await this.send(name, arg);
    await this.atRest();
    return sent;
  }

  /** Sends updates at the same moment, so that they race each other (issue #29: two approvers at once), then waits for rest. */
  async together(requests: { name: UpdateName; arg: (id: string) => unknown }[]): Promise<SentUpdate[]> {
    const sent = await Promise.all(requests.map(({ name, arg }) => this.send(name, arg)));
    await this.atRest();
    return sent;
  }

  private async send(name: UpdateName, arg: (id: string) => unknown): Promise<SentUpdate> {
    this.count += 1;
    const id = `${name}-${this.count}`;
    const sent: SentUpdate = { id, name, arg: arg(id), answer: null };
    this.updates.push(sent);
    const record = (settle: Promise<unknown>) => settle.then(
      (value) => { sent.answer = { ok: true, value }; },
      (err: unknown) => { sent.answer = { ok: false, code: refusalCode(err) }; },
    );
    try {
      const handle = await this.handle.startUpdate(name, { args: [sent.arg], updateId: id, waitForStage: WorkflowUpdateStage.ACCEPTED });
      this.answers.set(id, record(handle.result()));
    } catch (err) {
      await record(Promise.reject(err));
    }
    return sent;
  }

  async signal(name: 'signerSigned' | 'disbursementSettled'): Promise<void> {
    await this.handle.signal(name).catch((err: unknown) => {
      if (!isClosed(err)) throw err;
    });
    await this.atRest();
  }

  private get clock(): WorkflowHandle {
    return this.model.env.client.workflow.getHandle(testClockWorkflowId(clockOfOperation(this.operationId)));
  }

  /**
   * Ends the run's test clock the way an integrator's DELETE does: its delete signal, after which
   * it tells its operations and completes. Never terminated: on the Java test server, terminating a
   * clock run that had continued as new left time skipping locked for every later run of the lane
   * (docs/decisions.md, "Sandbox test clocks").
   */
  async deleteClock(): Promise<void> {
    const { clock } = this;
    await clock.signal(deleteClockSignal).catch((err: unknown) => {
      if (!isClosed(err)) throw err;
    });
    const deadline = Date.now() + REST_TIMEOUT_MS;
    while (await this.running(clock.workflowId)) {
      if (Date.now() > deadline) throw new Error(`the test clock did not complete ${REST_TIMEOUT_MS} ms after its delete signal`);
      await sleep(10);
    }
  }

  /** Advances the operation's test clock and waits until the clock is ready again (every operation on it caught up). */
  async advanceClock(frozenTime: string): Promise<void> {
    const { clock } = this;
    await clock.executeUpdate(advanceClockUpdate, { args: [{ frozenTime }] });
    const deadline = Date.now() + REST_TIMEOUT_MS;
    while ((await clock.query(testClockStateQuery)).advancing) {
      if (Date.now() > deadline) throw new Error(`the test clock was not ready ${REST_TIMEOUT_MS} ms after advancing to ${frozenTime}`);
      await sleep(10);
    }
    if (this.world.clock?.status !== 'ready') throw new Error(`the clock workflow is ready but its row says ${this.world.clock?.status}`);
    this.clockAdvances += 1;
  }

  async state(): Promise<OperationState> {
    return this.handle.query<OperationState>('state');
  }

  /** What the run is writing beside its status (workflows/operation/run-activity.ts): `idle` at rest. */
  async runActivity(): Promise<string> {
    return this.handle.query<string>('runActivity');
  }

  /** One update's answer, after the grace an answer needs to arrive (null: none yet). */
  async answerOf(sent: SentUpdate): Promise<SentUpdate['answer']> {
    if (sent.answer === null) await Promise.race([this.answers.get(sent.id), sleep(ANSWER_GRACE_MS)]);
    return sent.answer;
  }

  /** Updates with no answer yet, after the grace an answer needs to arrive. */
  async unanswered(): Promise<SentUpdate[]> {
    const waiting = this.updates.filter((u) => u.answer === null);
    await Promise.race([Promise.all(waiting.map((u) => this.answers.get(u.id))), sleep(ANSWER_GRACE_MS)]);
    return this.updates.filter((u) => u.answer === null);
  }

  /** The latest run has closed (completed, or continued as new into nothing: never here). */
  async closed(): Promise<boolean> {
    return !(await this.running(this.handle.workflowId));
  }

  private async running(workflowId: string): Promise<boolean> {
    const { workflowExecutionInfo } = await this.model.env.client.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId } });
    return (workflowExecutionInfo?.status ?? 1) === temporal.api.enums.v1.WorkflowExecutionStatus.WORKFLOW_EXECUTION_STATUS_RUNNING;
  }

  /**
   * Waits until the latest run has no workflow task pending and no activity in flight but those
   * its stalled provider holds: what the workflow does next waits on a timer, a message or a stall.
   * A workflow task the test server lost ends the wait early, as a WedgedTaskError (./wedged-task.ts).
   */
  async atRest(): Promise<void> {
    const deadline = Date.now() + REST_TIMEOUT_MS;
    while (!(await this.restingNow())) {
      if (this.model.workerFailure) throw new Error(`the worker stopped: ${String(this.model.workerFailure)}`);
      if (Date.now() > deadline) {
        throw new Error(`${this.handle.workflowId} not at rest after ${REST_TIMEOUT_MS} ms; provider calls running ${this.model.gate.running(this.operationId)}; history ends ${await this.historyTail()}`);
      }
      await sleep(10);
    }
  }

  private async restingNow(): Promise<boolean> {
    const { gate } = this.model;
    if (gate.running(this.operationId) > 0) return false;
    const events = await this.runHistory(this.handle.workflowId);
    this.startedTasks.observe(this.handle.workflowId, events);
    if (events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId) this.continuedAsNew = true;
    // While SEFAZ (or the escriturador) is down, the calls to it that got no answer wait out their retries, each unanswered again.
    const waitingTypes = [...(this.world.sefaz.down ? [NFE_CHECK_ACTIVITY] : []), ...(this.world.registrar?.down ? REGISTRAR_ACTIVITIES : [])];
    const waitingOut = (type: string, activityId: string) => waitingTypes.includes(type) && gate.isRetrying(this.handle.workflowId, activityId);
    if (!quiet(events, gate.isStalled(this.operationId), waitingOut)) return false;
    if (!this.onClock) return true;
    // On a test clock the operation and its clock signal each other: both must be quiet, or a command
    // would race their exchange (an update sent meanwhile was seen never accepted on the test server).
    const clockEvents = await this.runHistory(this.clock.workflowId);
    this.startedTasks.observe(this.clock.workflowId, clockEvents);
    return quiet(clockEvents, false);
  }

  /**
   * Whether a run of this operation's workflow (or of its test clock's) closed with an activity
   * still in flight, as a cancel may leave a dispatch it stopped waiting for. The real server drops
   * such an activity. The Java test server keeps the time-skipping lock it took when the activity
   * was scheduled: every later report of that activity (completion, failure, timeout) meets a
   * closed workflow and is refused before the lock is released, so the server's clock moves at
   * real time's pace from then on.
   */
  async closedWithActivityInFlight(): Promise<boolean> {
    for (const workflowId of this.onClock ? [this.handle.workflowId, this.clock.workflowId] : [this.handle.workflowId]) {
      let runId: string | undefined;
      do {
        const events = await this.runHistory(workflowId, runId);
        const closed = RUN_CLOSED.includes(events[events.length - 1]?.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED);
        if (closed && activitiesInFlight(events) > 0) return true;
        runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
      } while (runId);
    }
    return false;
  }

  /** The last events of the latest run, by type: what a failure report shows of where the workflow was. */
  async historyTail(count = 8): Promise<string> {
    return (await this.runHistory()).slice(-count).map((e) => EventType[e.eventType!].replace('EVENT_TYPE_', '')).join(', ');
  }

  /** The history of run `runId` of `workflowId`, or of its latest run. */
  private async runHistory(workflowId = this.handle.workflowId, runId?: string): Promise<temporal.api.history.v1.IHistoryEvent[]> {
    const events: temporal.api.history.v1.IHistoryEvent[] = [];
    let nextPageToken: Uint8Array | undefined;
    do {
      const page = await this.model.env.client.workflowService.getWorkflowExecutionHistory({
        namespace: 'default', execution: { workflowId, runId }, nextPageToken, maximumPageSize: 1000,
      });
      events.push(...(page.history?.events ?? []));
      nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
    } while (nextPageToken);
    return events;
  }
}

/**
 * A run's history (its latest run) with no workflow task pending, no signal to another workflow on
 * its way, and no activity in flight but those a stalled provider holds.
 */
function quiet(events: temporal.api.history.v1.IHistoryEvent[], stalled: boolean, waitingOut: WaitingOut = () => false): boolean {
  let taskPending = false;
  let signalling = 0;
  for (const event of events) {
    const type = event.eventType!;
    if (type === EventType.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED) taskPending = true;
    else if (TASK_CLOSED.includes(type)) taskPending = false;
    else if (type === EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED) signalling += 1;
    else if (SIGNAL_CLOSED.includes(type)) signalling -= 1;
  }
  // The latest run: a continue-as-new is never its last event, the new run's start is.
  if (RUN_CLOSED.includes(events[events.length - 1]?.eventType ?? EventType.EVENT_TYPE_UNSPECIFIED)) return true;
  return !taskPending && signalling === 0 && (activitiesInFlight(events, waitingOut) === 0 || stalled);
}

/** Whether a scheduled activity (its type and id) is waiting out a provider's outage between attempts, with no end in sight. */
type WaitingOut = (type: string, activityId: string) => boolean;

/** Activities a run's history scheduled and has not closed, but those `waitingOut` says wait out an outage. */
function activitiesInFlight(events: temporal.api.history.v1.IHistoryEvent[], waitingOut: WaitingOut = () => false): number {
  const activities = new Set<string>();
  for (const event of events) {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (event.eventType === EventType.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED && !waitingOut(scheduled?.activityType?.name ?? '', scheduled?.activityId ?? '')) activities.add(String(event.eventId));
    else if (ACTIVITY_CLOSED.includes(event.eventType!)) activities.delete(String(scheduledEventIdOf(event)));
  }
  return activities.size;
}

/** The model run's test clock, standing at the test server's time; the operation's starting knowledge of it. */
async function startClock(model: ModelEnvironment, world: OperationWorld): Promise<NonNullable<OperationWorkflowInput['testClock']>> {
  const clockId = clockOfOperation(world.operationId);
  const frozenTime = new Date(await model.now()).toISOString();
  world.clock = { frozenTime, status: 'ready' };
  const input: TestClockWorkflowInput = { clockId, originatorId: 'model', frozenTime, deletesAfter: new Date(Date.parse(frozenTime) + 30 * 86_400_000).toISOString() };
  await model.env.client.workflow.start('testClockWorkflow', { taskQueue: MODEL_TASK_QUEUE, workflowId: testClockWorkflowId(clockId), args: [input] });
  return { clockId, target: frozenTime, local: frozenTime, unanswered: null, deleted: false };
}

function scheduledEventIdOf(event: temporal.api.history.v1.IHistoryEvent): unknown {
  const attrs = event.activityTaskCompletedEventAttributes ?? event.activityTaskFailedEventAttributes
    ?? event.activityTaskTimedOutEventAttributes ?? event.activityTaskCanceledEventAttributes;
  return attrs?.scheduledEventId;
}

const isClosed = (err: unknown) => err instanceof Error && /not found|already completed/i.test(err.message);

/**
 * The contract's code a refusal carries (its ApplicationFailure type); a closed workflow refuses
 * everything. Anything else is no refusal the api could render: `error: …`, which fails the run.
 */
function refusalCode(err: unknown): string {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) return err.cause.type ?? 'refused';
  if (isClosed(err)) return 'workflow_closed';
  return `error: ${err instanceof Error ? err.message : String(err)}`;
}
