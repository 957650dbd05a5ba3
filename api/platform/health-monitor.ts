import type { DependencyProbe } from './dependency-probe';

export interface HealthState {
  database: 'ok' | 'down';
  temporal: 'ok' | 'down';
}

/**
 * What `/v1/health` answers: the last result of probes the api runs in the background, one round
 * at most per `intervalMs`, however many health checks arrive. A check never waits on Postgres or
 * Temporal, so a flood of them costs neither anything, and a frozen dependency shows as `down`
 * within a round and the probe's timeout.
 */
export class HealthMonitor {
  private state: HealthState = { database: 'down', temporal: 'down' };
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(private readonly probe: DependencyProbe, private readonly intervalMs = 1_000) {}

  /** The first round is awaited, so the api never answers from no state at all. */
  async start(): Promise<void> {
    this.inFlight = this.round();
    await this.inFlight;
  }

  current(): HealthState {
    return this.state;
  }

  /** Waits for a round in flight, so the connections it probes through may be closed after. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.inFlight;
  }

  private async round(): Promise<void> {
    const startedAt = Date.now();
    const [database, temporal] = await Promise.all([this.probe.database(), this.probe.temporalServer()]);
    this.state = { database: database.status, temporal: temporal.status };
    if (this.stopped) return;
    this.timer = setTimeout(() => { this.inFlight = this.round(); }, Math.max(0, this.intervalMs - (Date.now() - startedAt)));
    this.timer.unref();
  }
}
