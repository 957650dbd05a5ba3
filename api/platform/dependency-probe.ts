import type { Knex } from 'knex';
import type { TemporalHandle } from '../temporal/client';

export interface ProbeResult {
  status: 'ok' | 'down';
  latency_ms: number;
}

async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<ProbeResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => { timer = setTimeout(() => reject(new Error('timeout')), timeoutMs); }),
    ]);
    return { status: 'ok', latency_ms: Math.round(performance.now() - started) };
  } catch {
    return { status: 'down', latency_ms: Math.round(performance.now() - started) };
  } finally {
    clearTimeout(timer);
  }
}

/** The longest wait of the Temporal client between two attempts (5 s, plus 20 % jitter). */
const CLIENT_RETRY_WAIT_MS = 6_000;

/** Reachability of what the api depends on, for the health routes. */
export class DependencyProbe {
  constructor(private readonly db: Knex, private readonly temporal: TemporalHandle, private readonly timeoutMs = 1_000) {}

  database(): Promise<ProbeResult> {
    return timed(() => this.db.raw('select 1'), this.timeoutMs);
  }

  /**
   * The call carries its own deadline and is left to settle by itself: the client retries an
   * unreachable server after waits of up to 6 s (5 s and its jitter), and the first attempt after
   * the deadline ends it. Giving up on it earlier would leave a retry pending, which then runs on a
   * connection the api may have closed meanwhile (an uncaught "Channel has been shut down").
   */
  temporalServer(): Promise<ProbeResult> {
    const { connection } = this.temporal;
    return timed(() => connection.withDeadline(Date.now() + this.timeoutMs, () => connection.workflowService.getSystemInfo({})), this.timeoutMs + CLIENT_RETRY_WAIT_MS);
  }

  async workerPollers(): Promise<{ status: 'ok' | 'down'; task_queue: string; pollers: number }> {
    try {
      const response = await this.temporal.connection.workflowService.describeTaskQueue({
        namespace: this.temporal.namespace,
        taskQueue: { name: this.temporal.taskQueue },
        taskQueueType: 1, // workflow task queue
      });
      const pollers = response.pollers?.length ?? 0;
      return { status: pollers > 0 ? 'ok' : 'down', task_queue: this.temporal.taskQueue, pollers };
    } catch {
      return { status: 'down', task_queue: this.temporal.taskQueue, pollers: 0 };
    }
  }
}
