// The cluster's observability: Prometheus (Debian's package) scraping every app process, the
// sandbox and the Temporal server with the rules of ops/prometheus/, and Jaeger v2 (built from its
// Go module) receiving OTLP/HTTP traces from the api, the workers and the sandbox.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './infra.mjs';
import { OutputTail, STARTUP_BOUNDS_MS, waitForChildPort } from './startup.mjs';

function exited(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    setTimeout(() => child.kill('SIGKILL'), ms).unref();
  });
}

function run(binary, args, { cwd, logFile, env = process.env }) {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(binary, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  return { child, tail: new OutputTail().follow(child), stop: async () => { child.kill('SIGTERM'); await exited(child, 10_000); } };
}

const listening = (proc, port, what) => waitForChildPort({ child: proc.child, port, timeoutMs: STARTUP_BOUNDS_MS.observability, what, tail: proc.tail });

const hostPort = (url) => new URL(url).host;

/** `targets`: job name → metrics URLs (all on one path per job). Scrapes every 5 s: a test sees a change within seconds. */
export async function startPrometheus({ binary, dir, port, targets, logFile }) {
  mkdirSync(dir, { recursive: true });
  const rules = path.join(ROOT, 'ops', 'prometheus');
  const config = {
    global: { scrape_interval: '5s', evaluation_interval: '15s' },
    rule_files: [path.join(rules, 'recording-rules.yml'), path.join(rules, 'alert-rules.yml')],
    scrape_configs: Object.entries(targets).map(([job, urls]) => ({
      job_name: job, metrics_path: new URL(urls[0]).pathname, static_configs: [{ targets: urls.map(hostPort) }],
    })),
  };
  // YAML is a superset of JSON.
  writeFileSync(path.join(dir, 'prometheus.yml'), JSON.stringify(config, null, 2));
  const proc = run(binary, [
    `--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn',
  ], { cwd: dir, logFile });
  await listening(proc, port, `Prometheus (log: ${logFile})`);
  return { url: `http://127.0.0.1:${port}`, stop: proc.stop };
}

/** Jaeger v2 with in-memory storage: OTLP/HTTP on `otlpPort`, the query API (and UI when built with it) on `queryPort`. */
export async function startJaeger({ binary, dir, otlpPort, queryPort, logFile }) {
  mkdirSync(dir, { recursive: true });
  const config = {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: { traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] } },
      telemetry: { metrics: { level: 'none' }, logs: { level: 'warn' } },
    },
    extensions: {
      jaeger_query: { storage: { traces: 'memory' }, http: { endpoint: `127.0.0.1:${queryPort}` }, grpc: { endpoint: '127.0.0.1:0' } },
      jaeger_storage: { backends: { memory: { memory: { max_traces: 100000 } } } },
    },
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${otlpPort}` } } } },
    processors: { batch: { timeout: '1s' } },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memory' } },
  };
  writeFileSync(path.join(dir, 'jaeger.yaml'), JSON.stringify(config, null, 2));
  // Jaeger would trace itself to the default OTLP port, which nothing here listens on.
  const proc = run(binary, ['--config', path.join(dir, 'jaeger.yaml')], { cwd: dir, logFile, env: { ...process.env, OTEL_SDK_DISABLED: 'true', OTEL_TRACES_EXPORTER: 'none' } });
  await listening(proc, queryPort, `Jaeger query (log: ${logFile})`);
  await listening(proc, otlpPort, `Jaeger OTLP receiver (log: ${logFile})`);
  return { queryUrl: `http://127.0.0.1:${queryPort}`, otlpUrl: `http://127.0.0.1:${otlpPort}`, stop: proc.stop };
}
