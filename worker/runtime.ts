import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { IllegalStateError } from '@temporalio/common';
import { DefaultLogger, LogLevel, makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import type { Logger } from '../platform/logger';
import type { ExtraMetrics } from '../platform/telemetry/metrics-server';

const TEMPORAL_LEVELS: Record<string, LogLevel> = { error: 'ERROR', warn: 'WARN', info: 'INFO', debug: 'DEBUG' };
const PORT_TAKEN = /address already in use/i;
const ATTEMPTS = 3;

/** A loopback port free now, for the runtime's exporter, which takes an address and reports none back. */
function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** Where the runtime installed last exports its metrics. */
let metricsUrl: string | undefined;
/** An install under way. */
let installing: Promise<void> | undefined;

/**
 * Installs the runtime with its exporter on a port free now; another is tried if that one is taken
 * before the exporter binds it. A runtime already live stays: the SDK refuses a second install (the
 * SDK has no other public way to ask whether one is live).
 */
async function installOnFreePort({ logger, level }: { logger: Logger; level: string }): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freeLoopbackPort();
    try {
      Runtime.install({
        logger: new DefaultLogger(TEMPORAL_LEVELS[level] ?? 'INFO', (entry) => logger.log(entry.level.toLowerCase() === 'trace' ? 'debug' : entry.level.toLowerCase(), entry.message, entry.meta)),
        telemetryOptions: {
          logging: { forward: {}, filter: makeTelemetryFilterString({ core: TEMPORAL_LEVELS[level] ?? 'INFO' }) },
          // Prometheus's own conventions: `_total` counters, units in names, durations in seconds.
          metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } },
        },
      });
      metricsUrl = `http://127.0.0.1:${port}/metrics`;
      return;
    } catch (err) {
      if (err instanceof IllegalStateError) return;
      if (attempt >= ATTEMPTS || !PORT_TAKEN.test(String(err))) throw err;
    }
  }
}

/** Where the runtime exports its metrics now (the process's own scrape appends them). */
export const runtimeMetricsUrl = (): string | undefined => metricsUrl;

/** The runtime's metrics text, read at each scrape from wherever it exports now. */
const scrapeRuntime: ExtraMetrics = async () => {
  if (!metricsUrl) return '';
  const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2_000) });
  return res.ok ? res.text() : '';
};

/**
 * The Temporal runtime is global to the process: the SDK logs through our logger at our level, and
 * its metrics (`temporal_` prefix: pollers, slots, schedule-to-start, requests of the worker and of
 * the client on its connection) go to its Prometheus exporter on a private loopback port. The
 * process's metrics listener appends that text to its own scrape, so an operator scrapes one
 * address per process. It is installed at a worker's start whenever none is live, not once: the SDK
 * shuts it down when its last worker and connection close and creates it again at the next
 * connection with the options last installed, so on the same exporter port, which any process may
 * have taken in between (a freed port is what the next probe for a free one finds), or with another
 * module's options (the model test installs a quiet runtime of its own). A worker process runs one
 * worker for its life; a test process starts and stops one per file.
 */
export async function installRuntime(logger: Logger, level: string): Promise<ExtraMetrics> {
  // Two workers starting together share one install (and one port probe).
  await (installing ??= installOnFreePort({ logger, level }).finally(() => { installing = undefined; }));
  return scrapeRuntime;
}
