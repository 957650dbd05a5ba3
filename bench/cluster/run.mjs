#!/usr/bin/env node
// `npm run bench:cluster [operations] [concurrency]`: creation → PAID through the public API on
// the cluster topology (Temporal on Postgres, two apis, two workers) and, in the same run, on the
// dev topology (Temporal dev server on SQLite, one api, one worker). Prints load averages and the
// CPU our processes spent (from /proc) beside every figure: the machine may be shared.
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { startCluster, UNEXHAUSTED_RATE_LIMITS } from '../../scripts/lib/cluster.mjs';
import { ROOT } from '../../scripts/lib/infra.mjs';
import { ApiDriver, journey } from '../../scripts/lib/journeys.mjs';

const OPERATIONS = Number(process.argv[2] ?? 30);
const CONCURRENCY = Number(process.argv[3] ?? 5);
const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by every descendant of this process (the whole topology). */
function descendantsCpuSeconds() {
  const stats = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      stats.push({ pid: Number(entry), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch { /* exited meanwhile */ }
  }
  const ours = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const s of stats) if (!ours.has(s.pid) && ours.has(s.ppid)) { ours.add(s.pid); grew = true; }
  }
  ours.delete(process.pid);
  return stats.filter((s) => ours.has(s.pid)).reduce((sum, s) => sum + s.ticks, 0) / TICKS_PER_SECOND;
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(name, options) {
  const cluster = await startCluster({ observability: false, fixedPorts: false, fresh: true, web: false, dataDir: path.join(ROOT, '.data', `bench-${name}`), env: {
    ...process.env, LOG_LEVEL: 'warn',
    // The journeys poll every 100 ms from one address and one token: with the default budgets every
    // journey in flight stalled ~55 s on 429s.
    ...UNEXHAUSTED_RATE_LIMITS,
  }, ...options });
  try {
    const driver = new ApiDriver(cluster.apiUrl);
    await driver.login();
    const warm = { n: -1 };
    await journey(driver, warm, { deadline: Date.now() + 120_000, pollMs: 100, payTitles: false });
    const loadBefore = loadavg()[0];
    const cpuBefore = descendantsCpuSeconds();
    const started = Date.now();
    const done = [];
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < OPERATIONS) {
        const j = { n: next++ };
        await journey(driver, j, { deadline: Date.now() + 300_000, pollMs: 100, payTitles: false });
        done.push(j.paidAt - j.startedAt);
        if (j.paidAt - j.startedAt > 10_000) process.stderr.write(`[bench:cluster] ${name} slow journey ${j.id}: contract sent ${j.sentAt - j.startedAt} ms, signed ${j.signedAt - j.startedAt} ms, PAID ${j.paidAt - j.startedAt} ms\n`);
      }
    }));
    const wall = (Date.now() - started) / 1000;
    const cpu = descendantsCpuSeconds() - cpuBefore;
    const sorted = done.sort((a, b) => a - b);
    return {
      name, operations: done.length, wall, perMinute: (done.length / wall) * 60, p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95),
      cpuPerOperation: cpu / done.length, loadBefore, loadAfter: loadavg()[0],
    };
  } finally {
    await cluster.stop();
  }
}

const results = [
  await measure('dev', { devServer: true, apiProcesses: 1, workerCount: 1 }),
  await measure('cluster', {}),
];
process.stdout.write(`\n${OPERATIONS} operations, ${CONCURRENCY} at a time, creation → PAID (signing through the sandbox page, PIX settled)\n\n`);
process.stdout.write('| topology | ops/min | p50 s | p95 s | CPU s per operation (all our processes) | load avg before → after |\n| --- | --- | --- | --- | --- | --- |\n');
for (const r of results) {
  process.stdout.write(`| ${r.name} | ${r.perMinute.toFixed(1)} | ${(r.p50 / 1000).toFixed(2)} | ${(r.p95 / 1000).toFixed(2)} | ${r.cpuPerOperation.toFixed(2)} | ${r.loadBefore.toFixed(1)} → ${r.loadAfter.toFixed(1)} |\n`);
}
