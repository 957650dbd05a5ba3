import { createServer, type Server } from 'node:http';
import { loadConfig, Config, DEFAULT_METRICS_PORTS } from '../platform/config/config';
import { createLogger, failureText } from '../platform/logger';
import { createDb } from '../db/connection';
import { KeyRing } from './auth/keys';
import { ensureActiveKey } from './auth/signing-key-store';
import { CipherRing } from '../platform/crypto/cipher-ring';
import { TokenService } from './auth/tokens';
import { AuthService } from './auth/auth-service';
import { connectTemporal } from './temporal/client';
import { DependencyProbe } from './platform/dependency-probe';
import { HealthMonitor } from './platform/health-monitor';
import { AppDeps, createApp } from './app';
import { ReferenceCache } from './cache/reference-cache';
import { purgeExpiredRecords } from '../db/repositories/idempotency';
import { purgeIdleWindows } from '../db/repositories/rate-limit';
import { purgeCallbackSignatures } from '../db/repositories/callback-signatures';
import { purgeExpiredEvents } from '../db/repositories/events';
import { purgeSendSlots } from '../db/repositories/webhook-throttle';
import { keptSince } from '../domain/event-retention';
import { startMetricsServer } from '../platform/telemetry/metrics-server';
import { watchPool } from '../platform/telemetry/metrics';
import { serveBusinessGauges } from '../db/business-gauges';
import { startTracing } from '../platform/telemetry/tracing';

/**
 * The longest query the document allows (the events list's 50 `type` values of up to 428
 * characters, commas percent-encoded) is about 30 KB, past Node's 16 KB default for the request
 * line and headers: such a request would get a bare 431 instead of its answer.
 */
const MAX_HEADER_BYTES = 64 * 1024;

export interface RunningApi {
  server: Server;
  url: string;
  /** Where this process's metrics are scraped. */
  metricsUrl: string;
  close(): Promise<void>;
}

/** Wires the real dependencies and listens. Used by the entry point below and by the tests. */
export async function startApi(config: Config, options: Pick<AppDeps, 'now' | 'resolveHost'> = {}): Promise<RunningApi> {
  // The api opens its requests' spans itself (api/middleware/server-span.ts).
  const tracing = startTracing(config.tracing, 'receivables-api', 'app');
  const logger = createLogger(config.logLevel, 'api');
  const db = createDb(config.databaseUrl, config.db.poolMax, config.db.failFastMs, logger);
  const metrics = await startMetricsServer(config.metrics.host, config.metrics.port ?? DEFAULT_METRICS_PORTS.api);
  const unwatch = [watchPool(db, 'api'), serveBusinessGauges(db)];
  const cipher = new CipherRing(config.payloadKeys);
  await ensureActiveKey(db, cipher, config.jwt.privateKeyPem, config.jwt.tokenTtlSeconds);
  const keys = await KeyRing.load(db, cipher, { intervalMs: config.jwt.keyReloadIntervalMs });
  const tokens = new TokenService(keys, config.jwt.tokenTtlSeconds, {
    issuer: config.http.publicUrl, audience: config.jwt.audience, serviceEnv: config.serviceEnv,
  });
  const cache = new ReferenceCache(db, config.referenceCache.ttlMs);
  const auth = new AuthService(db, tokens, config, cache);
  // A rotated or retired key takes effect in this process as soon as Postgres says so.
  keys.onChange(() => auth.forgetVerifiedTokens());
  cache.watch('signing_keys', () => {
    keys.refresh().catch((err) => logger.warn('reloading the signing keys failed', { err: (err as Error).message }));
  });
  const listener = cache.listen(config.databaseUrl, logger);
  const temporal = connectTemporal(config.temporal, config.payloadKeys, tracing.sdk !== null);
  const now = options.now ?? (() => new Date());
  const probe = new DependencyProbe(db, temporal);
  const health = new HealthMonitor(probe);
  await health.start();
  const app = createApp({ config, db, temporal, keys, auth, cache, probe, health, logger, now, resolveHost: options.resolveHost, spans: tracing.sdk });
  // Every process purges; the deletes are idempotent, so overlapping runs are harmless.
  const purge = setInterval(() => {
    // A callback signature can be replayed while its timestamp is within the tolerance either side of its arrival.
    const signaturesBefore = new Date(now().getTime() - 2 * config.callbacks.toleranceSeconds * 1000);
    Promise.all([purgeExpiredRecords(db, now()), purgeIdleWindows(db, now()), purgeCallbackSignatures(db, signaturesBefore), purgeExpiredEvents(db, keptSince(now())),
      purgeSendSlots(db, Math.floor(now().getTime() / 1000) - 60)])
      .catch((err) => logger.warn('purge of idempotency records, rate-limit windows, callback signatures and expired events failed', { err: (err as Error).message }));
  }, config.purge.intervalMs).unref();
  const server = await new Promise<Server>((resolve) => {
    const s = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, app).listen(config.http.port, config.http.host, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.http.port;
  return {
    server,
    url: `http://${config.http.host}:${port}`,
    metricsUrl: metrics.url,
    async close() {
      clearInterval(purge);
      await health.stop();
      await metrics.close();
      for (const stop of unwatch) stop();
      await listener.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await temporal.connection.close().catch(() => undefined);
      await db.destroy();
    },
  };
}

if (require.main === module) {
  const config = loadConfig();
  startApi(config).then((api) => {
    process.stdout.write(`api listening on ${api.url}, metrics on ${api.metricsUrl}\n`);
    const stop = () => { api.close().finally(() => process.exit(0)); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }).catch((err) => {
    process.stderr.write(`api failed to start: ${failureText(err)}\n`);
    process.exit(1);
  });
}
