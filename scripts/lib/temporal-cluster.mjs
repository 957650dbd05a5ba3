// The Temporal server as production runs it: built from its Go module, all four services in one
// process, history and visibility in their own Postgres databases (schema by the module's SQL
// tool), Temporal Web from the UI server module.
import { execFile, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { OutputTail, STARTUP_BOUNDS_MS, waitForChildPort } from './startup.mjs';

const run = promisify(execFile);
export const TEMPORAL_DATABASES = { history: 'temporal', visibility: 'temporal_visibility' };
const SCHEMAS = { history: 'postgresql/v12/temporal', visibility: 'postgresql/v12/visibility' };

async function databaseExists(serverUrl, name) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount > 0;
  } finally {
    await client.end();
  }
}

/** Creates both databases and their schema the first time, and brings an older schema up to date. */
export async function setupTemporalDatabases({ sqlTool, serverUrl }) {
  const url = new URL(serverUrl);
  const connection = ['--plugin', 'postgres12', '--ep', url.hostname, '-p', url.port || '5432', '-u', decodeURIComponent(url.username), '--pw', decodeURIComponent(url.password)];
  for (const [kind, database] of Object.entries(TEMPORAL_DATABASES)) {
    const args = [...connection, '--db', database];
    if (!(await databaseExists(serverUrl, database))) {
      await run(sqlTool, [...args, 'create-database']);
      await run(sqlTool, [...args, 'setup-schema', '-v', '0.0']);
    }
    await run(sqlTool, [...args, 'update-schema', '--schema-name', SCHEMAS[kind]]);
  }
}

/** Every port the server listens on; the grpc frontend is the one clients use. */
export function temporalPorts(frontend, free) {
  return {
    frontend, frontendHttp: free(), history: free(), matching: free(), worker: free(),
    frontendMembership: free(), historyMembership: free(), matchingMembership: free(), workerMembership: free(),
    metrics: free(),
  };
}

function serverConfig({ serverUrl, ports }) {
  const url = new URL(serverUrl);
  const store = (databaseName, maxConns) => ({
    sql: {
      pluginName: 'postgres12', databaseName, connectAddr: `${url.hostname}:${url.port || 5432}`, connectProtocol: 'tcp',
      user: decodeURIComponent(url.username), password: decodeURIComponent(url.password), maxConns, maxIdleConns: maxConns, maxConnLifetime: '1h',
    },
  });
  const service = (grpcPort, membershipPort, extra = {}) => ({ rpc: { grpcPort, membershipPort, bindOnLocalHost: true, ...extra } });
  return {
    log: { stdout: true, level: 'warn', format: 'json' },
    persistence: {
      defaultStore: 'postgres-default', visibilityStore: 'postgres-visibility', numHistoryShards: 4,
      datastores: { 'postgres-default': store(TEMPORAL_DATABASES.history, 20), 'postgres-visibility': store(TEMPORAL_DATABASES.visibility, 5) },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      // The server's own metrics (sync match, persistence latency, ...) for the cluster's Prometheus.
      metrics: { prometheus: { framework: 'opentelemetry', timerType: 'histogram', listenAddress: `127.0.0.1:${ports.metrics}` } },
    },
    services: {
      frontend: service(ports.frontend, ports.frontendMembership, { httpPort: ports.frontendHttp }),
      history: service(ports.history, ports.historyMembership),
      matching: service(ports.matching, ports.matchingMembership),
      worker: service(ports.worker, ports.workerMembership),
    },
    clusterMetadata: {
      enableGlobalNamespace: false, failoverVersionIncrement: 10, masterClusterName: 'active', currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: `127.0.0.1:${ports.frontend}` } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    dynamicConfigClient: { filepath: 'dynamicconfig.yaml', pollInterval: '10s' },
  };
}

function waitForExit(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    setTimeout(() => child.kill('SIGKILL'), ms).unref();
  });
}

/**
 * Starts the server with a config written under `dir` (YAML is a superset of JSON). `restart()`
 * stops it and starts it again on the same ports, as an operator's restart does.
 */
export async function startTemporalServer({ binary, dir, serverUrl, ports, dynamicConfig = {}, logFile }) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'development.yaml'), JSON.stringify(serverConfig({ serverUrl, ports }), null, 2));
  // Search attributes created a moment ago are usable at once, as on the dev server.
  const dynamic = { 'system.forceSearchAttributesCacheRefreshOnRead': true, ...dynamicConfig };
  writeFileSync(path.join(dir, 'dynamicconfig.yaml'), JSON.stringify(Object.fromEntries(Object.entries(dynamic).map(([k, value]) => [k, [{ value, constraints: {} }]])), null, 2));
  const log = createWriteStream(logFile, { flags: 'a' });
  let child;
  const handle = {
    address: `127.0.0.1:${ports.frontend}`,
    metricsUrl: `http://127.0.0.1:${ports.metrics}/metrics`,
    get pid() { return child.pid; },
    async start() {
      child = spawn(binary, ['--root', dir, '--config', '.', '--env', 'development', '--allow-no-auth', 'start'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.pipe(log, { end: false });
      child.stderr.pipe(log, { end: false });
      const tail = new OutputTail().follow(child);
      await waitForChildPort({ child, port: ports.frontend, timeoutMs: STARTUP_BOUNDS_MS.temporalServer, what: `Temporal server (log: ${logFile})`, tail });
    },
    async stop() {
      child.kill('SIGTERM');
      await waitForExit(child, 15_000);
    },
    async restart() {
      await handle.stop();
      await handle.start();
    },
  };
  await handle.start();
  return handle;
}

/** Temporal Web: the UI server module, its config written under `dir`. */
export async function startTemporalWeb({ binary, dir, temporalAddress, port, codecEndpoint = null, logFile }) {
  mkdirSync(dir, { recursive: true });
  const config = {
    temporalGrpcAddress: temporalAddress, host: '127.0.0.1', port, enableUi: true, defaultNamespace: 'default',
    cors: { allowOrigins: [`http://127.0.0.1:${port}`] }, auth: { enabled: false },
    // includeCredentials: the browser sends the api's codec_session cookie (set when an operator signs in to the console).
    ...(codecEndpoint ? { codec: { endpoint: codecEndpoint, includeCredentials: true } } : {}),
  };
  writeFileSync(path.join(dir, 'development.yaml'), JSON.stringify(config, null, 2));
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(binary, ['--root', dir, '--config', '.', '--env', 'development', 'start'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  await waitForChildPort({ child, port, timeoutMs: STARTUP_BOUNDS_MS.temporalWeb, what: `Temporal Web (log: ${logFile})`, tail: new OutputTail().follow(child) });
  return { url: `http://127.0.0.1:${port}`, stop: async () => { child.kill('SIGTERM'); await waitForExit(child, 5_000); } };
}
