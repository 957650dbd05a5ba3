// The production topology on one machine: Postgres, the Temporal server on Postgres with Temporal
// Web, two api processes behind one address, two workers and the sandbox providers. Used by
// `npm run cluster`, `npm run chaos` and the cluster test run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureTemporal } from '../install-temporal.mjs';
import { ensureClusterTools } from './cluster-tools.mjs';
import { createDatabase, ROOT, say } from './infra.mjs';
import { freeLowPort, freePort } from './ports.mjs';
import { startEmbeddedPostgres } from './postgres.mjs';
import { Supervised } from './supervisor.mjs';
import { prepareTemporal } from '../prepare-temporal.mjs';
import { startTemporalDev } from './temporal.mjs';
import { setupTemporalDatabases, startTemporalServer, startTemporalWeb, temporalPorts } from './temporal-cluster.mjs';
import { keptSecrets } from './secrets.mjs';
import { ensureJaeger } from './cluster-tools.mjs';
import { ensurePrometheus } from '../install-prometheus.mjs';
import { startJaeger, startPrometheus } from './observability.mjs';

const NODE_TSX = [process.execPath, '--import', 'tsx'];

/**
 * Rate-limit budgets no load run or test run can exhaust: the admission still runs (through
 * Postgres, faults included), but what is measured is the lifecycle, never a 429 window refilling.
 */
export const UNEXHAUSTED_RATE_LIMITS = {
  RATE_LIMIT_IP_RPM: '1000000', RATE_LIMIT_LOGIN_RPM: '1000000', RATE_LIMIT_AUTH_TOKEN_RPM: '1000000', RATE_LIMIT_TOKEN_RPM: '1000000',
  RATE_LIMIT_LOGIN_ACCOUNT_PER_HOUR: '1000000', RATE_LIMIT_LOGIN_ACCOUNT_CEILING_PER_HOUR: '1000000', RATE_LIMIT_HEALTH_RPM: '1000000',
};

/**
 * `fixedPorts`: the documented ports (api 8000, sandbox 8100, Temporal 7233, Web 8233, Postgres
 * 5434), else free ones; `fresh`: a new data folder (fault runs, tests), else the one under
 * .data/cluster/ reused; `apps: false` stops after Temporal (a test run brings its own api and
 * worker). `devServer` puts the Temporal dev server (SQLite) in place of the Postgres-backed one,
 * for comparisons. `observability` (with apps) adds Prometheus scraping every process and Jaeger
 * receiving their traces. Returns handles a fault run can crash, restart and freeze.
 */
export async function startCluster({
  env = process.env, fixedPorts = true, fresh = false, web = true, apps = true, dataDir = path.join(ROOT, '.data', 'cluster'), dynamicConfig = {},
  devServer = false, apiProcesses = 2, workerCount = 2, observability = true,
} = {}) {
  const stops = [];
  const stopAll = async () => { for (const stop of stops.reverse()) await stop().catch(() => undefined); };
  try {
    if (fresh) rmSync(dataDir, { recursive: true, force: true });
    const logs = path.join(dataDir, 'logs');
    mkdirSync(logs, { recursive: true });
    const port = async (fixed) => (fixedPorts ? fixed : freePort());
    const tools = devServer ? null : ensureClusterTools({ web });
    const temporalCli = ensureTemporal();

    let postgres = null;
    let serverUrl = env.DATABASE_URL;
    if (!serverUrl) {
      const pgPort = await port(Number(env.CLUSTER_PG_PORT ?? 5434));
      say(`starting embedded Postgres on port ${pgPort} (data in ${path.relative(ROOT, dataDir)}/pg)`);
      postgres = await startEmbeddedPostgres({ dataDir: path.join(dataDir, 'pg'), port: pgPort });
      postgres.dataDir = path.join(dataDir, 'pg');
      stops.push(() => postgres.stop());
      serverUrl = postgres.url('postgres');
    }
    let temporal;
    let webUi = null;
    let apiPort = null;
    if (devServer) {
      const devPort = await freePort();
      temporal = await startTemporalDev({ binary: temporalCli, port: devPort, uiPort: await freePort(), headless: true, dbFile: path.join(dataDir, 'temporal.db') });
      stops.push(() => temporal.stop());
    } else {
      say('setting up the Temporal databases (temporal-sql-tool)...');
      await setupTemporalDatabases({ sqlTool: tools.sql, serverUrl });

      const frontend = await port(Number(env.CLUSTER_TEMPORAL_PORT ?? 7233));
      const free = [];
      for (let i = 0; i < 9; i += 1) free.push(fixedPorts ? frontend + [10, 1, 2, 6, -300, -299, -298, -294, 7][i] : await (i < 4 || i === 8 ? freePort() : freeLowPort()));
      const ports = temporalPorts(frontend, () => free.shift());
      say(`starting the Temporal server ${path.relative(ROOT, tools.server)} on port ${frontend} (Postgres persistence)`);
      temporal = await startTemporalServer({ binary: tools.server, dir: path.join(dataDir, 'temporal'), serverUrl, ports, dynamicConfig, logFile: path.join(logs, 'temporal.log') });
      stops.push(() => temporal.stop());
      await prepareTemporal({ address: temporal.address });

      if (tools.ui) {
        const webPort = await port(Number(env.CLUSTER_TEMPORAL_UI_PORT ?? 8233));
        // Temporal Web decodes through the api's codec with the console's session cookie (same site, credentials included).
        apiPort = apps ? await port(Number(env.PORT ?? 8000)) : null;
        const codecEndpoint = apps ? `${env.PUBLIC_URL ?? `http://127.0.0.1:${apiPort}`}/v1/backoffice/codec` : null;
        webUi = await startTemporalWeb({ binary: tools.ui, dir: path.join(dataDir, 'web'), temporalAddress: temporal.address, port: webPort, codecEndpoint, logFile: path.join(logs, 'temporal-web.log') });
        stops.push(() => webUi.stop());
      }
    }
    const infra = { serverUrl, logs, postgres, temporal, webUi, temporalCli, stop: stopAll };
    if (!apps) return infra;

    const observe = observability && !devServer;
    let jaeger = null;
    if (observe) {
      const [otlpPort, queryPort] = [await port(Number(env.CLUSTER_JAEGER_OTLP_PORT ?? 4318)), await port(Number(env.CLUSTER_JAEGER_PORT ?? 16686))];
      jaeger = await startJaeger({ binary: ensureJaeger(), dir: path.join(dataDir, 'jaeger'), otlpPort, queryPort, logFile: path.join(logs, 'jaeger.log') });
      stops.push(() => jaeger.stop());
    }
    const databaseUrl = await createDatabase(serverUrl, env.CLUSTER_DATABASE ?? 'receivables');
    apiPort ??= await port(Number(env.PORT ?? 8000));
    const sandboxPort = await port(Number(env.SANDBOX_PORT ?? 8100));
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const appEnv = {
      ...env,
      // Kept with the cluster's data, so its histories and webhook secrets still open after a restart.
      ...keptSecrets(path.join(dataDir, 'secrets.json'), env),
      NODE_ENV: 'production',
      // Demo data with published passwords and a webhook receiver on this machine: only dev allows both.
      SERVICE_ENV: env.SERVICE_ENV ?? 'dev',
      DATABASE_URL: databaseUrl,
      TEMPORAL_ADDRESS: temporal.address,
      TEMPORAL_WEB_URL: webUi?.url ?? '',
      PORT: String(apiPort),
      PUBLIC_URL: env.PUBLIC_URL ?? apiUrl,
      ESIGN_URL: env.ESIGN_URL ?? `${sandboxUrl}/esign`,
      PIX_URL: env.PIX_URL ?? `${sandboxUrl}/pix`,
      MAIL_SANDBOX_URL: env.MAIL_SANDBOX_URL ?? `${sandboxUrl}/mail`,
      PIX_COLLECTION_URL: env.PIX_COLLECTION_URL ?? `${sandboxUrl}/api-pix/v2`,
      PIX_COLLECTION_TOKEN_URL: env.PIX_COLLECTION_TOKEN_URL ?? `${sandboxUrl}/api-pix/oauth/token`,
      SEFAZ_SANDBOX_URL: env.SEFAZ_SANDBOX_URL ?? `${sandboxUrl}/sefaz`,
      REGISTRAR_URL: env.REGISTRAR_URL ?? `${sandboxUrl}/escriturador`,
      SANDBOX_PORT: String(sandboxPort),
      SANDBOX_STATE_FILE: path.join(dataDir, 'sandbox-state.json'),
      WEBHOOKS_ALLOW_PRIVATE_HOSTS: env.WEBHOOKS_ALLOW_PRIVATE_HOSTS ?? 'true',
      LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
      ...(jaeger && !env.OTEL_EXPORTER_OTLP_ENDPOINT ? { OTEL_EXPORTER_OTLP_ENDPOINT: jaeger.otlpUrl } : {}),
    };
    say('migrating and seeding...');
    const migrated = spawnSync(NODE_TSX[0], [...NODE_TSX.slice(1), 'db/cli.ts', 'migrate', 'seed'], { cwd: ROOT, env: appEnv, encoding: 'utf8' });
    if (migrated.status !== 0) throw new Error(`migration failed:\n${migrated.stderr}`);

    // Each app process has its own metrics listener: the api processes from 9464 up, the workers after them (or free ports).
    const metricsBase = Number(env.METRICS_PORT ?? 9464);
    const metricsPorts = [];
    for (let i = 0; i < apiProcesses + workerCount; i += 1) metricsPorts.push(await port(metricsBase + i));
    const apiMetricsPorts = metricsPorts.slice(0, apiProcesses);
    const workerMetricsPorts = metricsPorts.slice(apiProcesses);
    const supervise = (name, args, ready, extra = {}) => new Supervised(name, NODE_TSX[0], args, { cwd: ROOT, env: appEnv, logFile: path.join(logs, `${name}.log`), ready, ...extra });
    const sandbox = supervise('sandbox', [...NODE_TSX.slice(1), 'sandbox/main.ts'], /sandbox providers on/);
    const apiPids = new Set();
    const apis = supervise('api', [path.join(ROOT, 'scripts', 'lib', 'api-cluster.mjs'), String(apiProcesses), 'api/server.ts', '--import', 'tsx'], new RegExp(`(api process \\d+ listening[\\s\\S]*){${apiProcesses}}`), {
      env: { ...appEnv, METRICS_PORTS: apiMetricsPorts.join(',') },
      onLine: (line) => {
        const up = /api process (\d+) listening/.exec(line);
        const down = /api process (\d+) exited/.exec(line);
        if (up) apiPids.add(Number(up[1]));
        if (down) apiPids.delete(Number(down[1]));
      },
    });
    const workers = Array.from({ length: workerCount }, (_, i) => i + 1).map((n) => supervise(`worker-${n}`, [...NODE_TSX.slice(1), 'worker/main.ts'], /worker polling task queue/, {
      env: { ...appEnv, METRICS_PORT: String(workerMetricsPorts[n - 1]) },
    }));
    for (const service of [sandbox, apis, ...workers]) {
      await service.start();
      stops.push(() => service.stop());
    }

    const metricsUrls = { apis: apiMetricsPorts.map((p) => `http://127.0.0.1:${p}/metrics`), workers: workerMetricsPorts.map((p) => `http://127.0.0.1:${p}/metrics`) };
    let prometheus = null;
    if (observe) {
      prometheus = await startPrometheus({
        binary: ensurePrometheus().prometheus, dir: path.join(dataDir, 'prometheus'), port: await port(Number(env.CLUSTER_PROMETHEUS_PORT ?? 9090)), logFile: path.join(logs, 'prometheus.log'),
        targets: { 'receivables-api': metricsUrls.apis, 'receivables-worker': metricsUrls.workers, 'receivables-sandbox': [`${sandboxUrl}/metrics`], 'temporal-server': [temporal.metricsUrl] },
      });
      stops.push(() => prometheus.stop());
    }
    return { ...infra, apiUrl, sandboxUrl, databaseUrl, sandbox, apis, apiPids, workers, appEnv, metricsUrls, prometheus, jaeger };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** What `temporal operator cluster describe` says about persistence, for the banner and the tests. */
export function describePersistence(temporalCli, address) {
  const out = spawnSync(temporalCli, ['operator', 'cluster', 'describe', '--address', address, '-o', 'json'], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  const described = JSON.parse(out.stdout);
  return { persistence: described.persistenceStore, visibility: described.visibilityStore, version: described.serverVersion };
}
