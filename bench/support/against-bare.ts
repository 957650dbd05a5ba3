import { writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { startChild } from '../../test/support/child-process';
import { byPid, cpuBetween, readCpu, Roots } from '../creation/cpu';
import { option } from './options';

/** A closed loop of `connections` keep-alive connections for `seconds` after `warmup` seconds. */
export interface LoopSettings { seconds: number; warmup: number; connections: number }

/** `--seconds` (8), `--warmup` (2) and `--connections` (10) from the command line. */
export function loopOptions(): LoopSettings {
  return { seconds: Number(option('seconds', '8')), warmup: Number(option('warmup', '2')), connections: Number(option('connections', '10')) };
}

interface Measured { rps: number; p99: number; cpuMsPerRequest: Record<string, number> }

async function measure(url: string, headers: Record<string, string>, cpu: Record<string, Roots>, loop: LoopSettings): Promise<Measured> {
  const { seconds, warmup, connections } = loop;
  if (warmup > 0) await autocannon({ url, headers, connections, duration: warmup });
  const before = readCpu(cpu);
  const result = await autocannon({ url, headers, connections, duration: seconds });
  const used = cpuBetween(before, readCpu(cpu));
  if (result['2xx'] === 0 || result.non2xx > 0) throw new Error(`${url}: ${result['2xx']} 2xx, ${result.non2xx} others`);
  return { rps: result['2xx'] / seconds, p99: result.latency.p99, cpuMsPerRequest: Object.fromEntries(Object.entries(used).map(([k, ms]) => [k, ms / result['2xx']])) };
}

/** The table `againstBare` writes a row of. */
export const AGAINST_BARE_HEADER = [
  '| route | response bytes | requests/s | bare Express, same bytes | ratio | p99 ms | CPU ms / request (api · postgres) | bare Express CPU ms / request |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];

/**
 * A GET route of the api against bare Express 5 answering the same bytes (bench/events/bare-replay.ts,
 * its own process): fetches the route's answer once, keeps it in `folder`, measures bare Express
 * replaying it, then the api; CPU ms per request of the api and Postgres (bare Express's own beside).
 * Answers the table's row.
 */
export async function againstBare(apiUrl: string, route: string, headers: Record<string, string>, stack: { api: Roots; postgres: Roots }, loop: LoopSettings, folder: string): Promise<string> {
  const answer = await fetch(`${apiUrl}${route}`, { headers });
  const body = await answer.text();
  if (answer.status !== 200) throw new Error(`${route}: ${answer.status} ${body}`);
  const file = path.join(folder, `${route.replace(/\W+/g, '_')}.json`);
  writeFileSync(file, body);
  const bare = await startChild('bench/events/bare-replay.ts', { BENCH_REPLAY_FILE: file }, /bare replay listening on (http:\/\/[\d.:]+)/);
  try {
    const yardstick = await measure(`${bare.match[1]}/replay`, {}, { api: byPid(bare.process.pid!), postgres: stack.postgres }, loop);
    const api = await measure(`${apiUrl}${route}`, headers, { api: stack.api, postgres: stack.postgres }, loop);
    process.stderr.write(`[bench] ${route}: ${api.rps.toFixed(0)}/s against ${yardstick.rps.toFixed(0)}/s\n`);
    return `| GET ${route} | ${Buffer.byteLength(body)} | ${api.rps.toFixed(1)} | ${yardstick.rps.toFixed(1)} | ${(100 * api.rps / yardstick.rps).toFixed(1)} % | ${api.p99} | ${api.cpuMsPerRequest.api.toFixed(3)} · ${api.cpuMsPerRequest.postgres.toFixed(3)} | ${yardstick.cpuMsPerRequest.api.toFixed(3)} |`;
  } finally {
    await bare.kill('SIGTERM');
  }
}
