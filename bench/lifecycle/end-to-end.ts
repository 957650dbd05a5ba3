/**
 * End-to-end operations per second, from `POST /v1/operations/direct` to `PAID`, with zero-delay
 * sandbox providers and embedded signing: creation, automatic contract dispatch, signing through
 * the sandbox signing page over HTTP (as a person would), PIX order, settlement callback,
 * reconciliation. Arrivals at a steady rate, spread over several originators as real traffic is.
 * Each operation's latency runs from its creation request to the moment its read model turned
 * PAID (the row's updated_at), so the polling (every 250 ms, to sign and to notice PAID) does
 * not blur it.
 *
 *   npx tsx bench/lifecycle/end-to-end.ts [operations per second, default 25] [seconds, default 20] [originators, default 8] [receivables, default 1]
 *
 * The api, the worker and the sandbox run as separate processes (bench/creation/stack.ts), beside
 * Postgres and the Temporal dev server, on this 2-core machine.
 */
import { randomUUID } from 'node:crypto';
import { signThroughPage } from '../../test/sandbox/support';
import { ApiClient } from '../../test/support/http';
import { startStack } from '../creation/stack';
import { directBody, seedOriginators } from '../creation/workload';
import { summary } from '../support/summary';

const RATE = Number(process.argv[2] ?? 25);
const SECONDS = Number(process.argv[3] ?? 20);
const ORIGINATORS = Number(process.argv[4] ?? 8);
/** Each receivable becomes a title followed by its own child workflow once the operation is PAID. */
const RECEIVABLES = Number(process.argv[5] ?? 1);
const POLL_MS = 250;
const GIVE_UP_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const stack = await startStack({ worker: true, sandboxEnv: { SANDBOX_SETTLEMENT_DELAY_MS: '0' } });
  const client = new ApiClient(stack.apiUrl);
  const originators = await seedOriginators(stack.db, stack.apiUrl, ORIGINATORS, true);
  const latencies: number[] = [];
  const failures: string[] = [];

  async function one(): Promise<void> {
    const startedAt = Date.now();
    const originator = originators[Math.floor(Math.random() * originators.length)];
    const { token } = originator;
    const body = directBody(originator);
    const created = await client.post('/v1/operations/direct', { ...body, receivables: (body.receivables as unknown[]).slice(0, RECEIVABLES), embedded_signature: true }, { token, headers: { 'Idempotency-Key': randomUUID() } });
    if (created.status !== 201) { failures.push(`create ${created.status}`); return; }
    const id = created.body.id;
    for (;;) {
      const signers = await client.get(`/v1/operations/${id}/contract/signers`, { token });
      if (signers.status === 200) {
        for (const signer of signers.body.signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
        break;
      }
      if (Date.now() - startedAt > GIVE_UP_MS) { failures.push(`not dispatched: ${signers.status}`); return; }
      await sleep(POLL_MS);
    }
    for (;;) {
      const row = await stack.db('operations').where({ id }).first('lifecycle_status', 'updated_at');
      if (row.lifecycle_status === 'PAID') {
        latencies.push(row.updated_at.getTime() - startedAt);
        return;
      }
      if (Date.now() - startedAt > GIVE_UP_MS) { failures.push(`timeout in ${row.lifecycle_status}`); return; }
      await sleep(POLL_MS);
    }
  }

  const runs: Promise<void>[] = [];
  const begin = performance.now();
  for (let i = 0; i < RATE * SECONDS; i += 1) {
    const wait = begin + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    runs.push(one().catch((err) => { failures.push(String(err)); }));
  }
  await Promise.all(runs);
  const elapsed = (performance.now() - begin) / 1000;
  const s = summary(latencies);
  process.stdout.write(`${JSON.stringify({
    offered_per_second: RATE, seconds: SECONDS, originators: ORIGINATORS, receivables: RECEIVABLES, completed: s.count, failures: failures.length,
    failure_samples: failures.slice(0, 5), achieved_per_second: Number((s.count / elapsed).toFixed(1)),
    p50_ms: Math.round(s.p50), p99_ms: Math.round(s.p99), max_ms: Math.round(s.max),
  }, null, 2)}\n`);
  await stack.stop();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
