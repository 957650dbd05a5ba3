import { ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { eventually } from './webhooks';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'receivables-anticipation-api.mjs');

/** The integrator's side of the CLI: where the api is and its client credentials, as the README's quickstart sets them. */
export interface CliCredentials {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
}

const environment = (credentials: CliCredentials) => ({
  ...process.env, RECEIVABLES_API_URL: credentials.apiUrl, RECEIVABLES_CLIENT_ID: credentials.clientId, RECEIVABLES_CLIENT_SECRET: credentials.clientSecret,
});

/** One CLI command to its end (the package's `bin`, as `npx` runs it): its exit code and output. */
export async function runCli(credentials: CliCredentials, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: environment(credentials), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const [code] = await once(child, 'exit') as [number | null];
  return { code, stdout, stderr };
}

/** The ids a `trigger` printed, by name (`operation`, `title`, `payable`, `test_clock`...). */
export function printedIds(stdout: string): Record<string, string[]> {
  const ids: Record<string, string[]> = {};
  for (const [, name, id] of stdout.matchAll(/^([a-z_]+) ([0-9a-f-]{36})/gm)) (ids[name] ??= []).push(id);
  return ids;
}

export interface RunningCli {
  process: ChildProcess;
  output(): string;
  /** Waits for `pattern` in the output, and answers its match. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

/** A long-running command (`listen`, `events tail`), stopped as Ctrl-C stops it. */
export function startCli(credentials: CliCredentials, args: string[]): RunningCli {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: environment(credentials), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  return {
    process: child,
    output: () => output,
    waitFor: (pattern, timeoutMs = 60_000) => eventually(async () => {
      const found = pattern.exec(output);
      if (!found) throw new Error(`no ${pattern} in the CLI's output:\n${output.slice(-3000)}`);
      return found;
    }, timeoutMs),
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGINT');
      await once(child, 'exit');
    },
  };
}

export interface PlainRequest {
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: { event_id: string; event_type: string; data: Record<string, unknown> };
}

/** A plain-HTTP local receiver, as an integrator runs one on localhost: it answers 200 and keeps every request. */
export async function plainReceiver(): Promise<{ url: string; requests: PlainRequest[]; close(): Promise<void> }> {
  const requests: PlainRequest[] = [];
  const server = createServer((req, res) => {
    let rawBody = '';
    req.on('data', (chunk: Buffer) => { rawBody += chunk.toString('utf8'); });
    req.on('end', () => {
      requests.push({ headers: req.headers, rawBody, body: JSON.parse(rawBody) });
      res.writeHead(200).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/webhook`,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
