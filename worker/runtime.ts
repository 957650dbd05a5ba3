import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { DefaultLogger, LogLevel, makeTelemetryFilterString, Runtime } from '@temporalio/worker';
import type { Logger } from '../db/logger';
import type { ExtraMetrics } from '../db/telemetry/metrics-server';

const TEMPORAL_LEVELS: Record<string, LogLevel> = { error: 'ERROR', warn: 'WARN', info: 'INFO', debug: 'DEBUG' };

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

let installed: Promise<ExtraMetrics> | undefined;

/**
 * The Temporal runtime is global to the process, so it is installed once: the SDK logs through our
 * logger at our level, and its metrics (`temporal_` prefix: pollers, slots, schedule-to-start,
 * requests of the worker and of the client on its connection) go to its Prometheus exporter on a
 * private loopback port. The process's metrics listener appends that text to its own scrape, so an
 * operator scrapes one address per process.
 */
export function installRuntime(logger: Logger, level: string): Promise<ExtraMetrics> {
  installed ??= freeLoopbackPort().then((port) => {
    Runtime.install({
      logger: new DefaultLogger(TEMPORAL_LEVELS[level] ?? 'INFO', (entry) => logger.log(entry.level.toLowerCase() === 'trace' ? 'debug' : entry.level.toLowerCase(), entry.message, entry.meta)),
      telemetryOptions: {
        logging: { forward: {}, filter: makeTelemetryFilterString({ core: TEMPORAL_LEVELS[level] ?? 'INFO' }) },
        // Prometheus's own conventions: `_total` counters, units in names, durations in seconds.
        metrics: { prometheus: { bindAddress: `127.0.0.1:${port}`, countersTotalSuffix: true, unitSuffix: true, useSecondsForDurations: true } },
      },
    });
    const url = `http://127.0.0.1:${port}/metrics`;
    return async () => {
      const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      return res.ok ? res.text() : '';
    };
  });
  return installed;
}
