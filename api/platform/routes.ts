import { Router } from 'express';
import type { Config } from '../../platform/config/config';
import type { DependencyProbe } from './dependency-probe';
import type { HealthMonitor } from './health-monitor';
import type { KeyRing } from '../auth/keys';
import { handle, ok } from '../http/handle';
import { INTEGRATION_FLOW } from './integration-flow';
import { readRelease, releasePath, releaseVersions } from '../openapi/releases';
import { authorizationServerMetadata, SERVER_METADATA_PATH } from '../auth/server-metadata';

export interface PlatformDeps {
  config: Config;
  probe: DependencyProbe;
  health: HealthMonitor;
  keys: KeyRing;
  document: Record<string, unknown>;
  startedAt: number;
}

export function platformRoutes({ config, probe, health, keys, document, startedAt }: PlatformDeps): Router {
  const router = Router();
  const base = () => ({ env: config.serviceEnv, version: config.apiVersion, uptime_seconds: Math.floor((Date.now() - startedAt) / 1000) });

  router.get('/v1/health', handle(async () => {
    const checks = health.current();
    const healthy = checks.database === 'ok' && checks.temporal === 'ok';
    return { status: healthy ? 200 : 503, body: { status: healthy ? 'ok' : 'degraded', ...base(), checks: { ...checks } } };
  }));

  router.get('/v1/health/deep', handle(async () => {
    const [database, temporal, worker] = await Promise.all([probe.database(), probe.temporalServer(), probe.workerPollers()]);
    const healthy = [database, temporal, worker].every((d) => d.status === 'ok');
    return {
      status: healthy ? 200 : 503,
      body: {
        status: healthy ? 'ok' : 'degraded',
        ...base(),
        dependencies: { database, temporal: { ...temporal, namespace: config.temporal.namespace }, worker },
      },
    };
  }));

  router.get('/v1/flow', handle(async () => ok({ version: config.apiVersion, steps: INTEGRATION_FLOW })));
  router.get('/v1/openapi.json', handle(async () => ok(document)));
  for (const version of releaseVersions()) {
    const frozen = readRelease(version);
    router.get(releasePath(version), (_req, res) => { res.type('application/json').send(frozen); });
  }
  router.get('/v1/.well-known/jwks.json', handle(async () => ok(keys.jwks())));
  const metadata = authorizationServerMetadata(config.http.publicUrl);
  router.get(SERVER_METADATA_PATH, handle(async () => ok(metadata)));
  return router;
}
