/**
 * Issue #26: one test clock holding N paid operations of 10 titles each (default 200), advanced
 * past every due date plus grace in one advance. Reports the wall time from the advance to
 * `ready` (target: 60 s on this 2-core machine) and the CPU per title processed (api, worker,
 * Postgres, Temporal; /proc, so other load on the machine does not count), beside the floor: the
 * same overdue work with no clock, driven by the workflow's own deadlines (titles already past due
 * when tracking begins), measured as the CPU from "all signed" to quiet minus the same window for
 * operations whose titles are not due (no title work).
 *
 *   npx tsx bench/test-clocks/advance.ts [operations, default 200] [concurrency, default 8]
 *
 * Not a test: run it on a quiet machine; it takes several minutes to bring the operations to PAID.
 */
import { randomUUID } from 'node:crypto';
import { addDays, businessDate } from '../../domain/pricing';
import { signThroughPage } from '../../test/sandbox/support';
import { ApiClient } from '../../test/support/http';
import { cpuBetween, CpuReading, readCpu, Roots } from '../creation/cpu';
import { BenchStack, stackComponents, startStack } from '../creation/stack';
import { directBody, Originator, seedOriginators } from '../creation/workload';

const OPERATIONS = Number(process.argv[2] ?? 200);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const TITLES_PER_OPERATION = 10;
const DAY_MS = 86_400_000;
const POLL_MS = 250;
const GIVE_UP_MS = 600_000;
const QUIET_MS_PER_S = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (line: string) => process.stderr.write(`[bench:test-clocks] ${line}\n`);
const total = (spent: Record<string, number>) => Object.values(spent).reduce((a, b) => a + b, 0);

async function quiet(meter: Record<string, Roots>): Promise<CpuReading> {
  let before = readCpu(meter);
  for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
    await sleep(1_000);
    const now = readCpu(meter);
    if (total(cpuBetween(before, now)) < QUIET_MS_PER_S) return now;
    before = now;
  }
  return before;
}

async function untilCount(query: () => Promise<number>, wanted: number, what: string): Promise<void> {
  for (const deadline = Date.now() + GIVE_UP_MS; ;) {
    const count = await query();
    if (count >= wanted) return;
    if (Date.now() > deadline) throw new Error(`${what}: ${count} of ${wanted}`);
    await sleep(POLL_MS * 4);
  }
}

/** N operations created (their 10 due dates from `dueFrom`, 10 days apart), each signed through the sandbox page once dispatched; resolves with their ids once all are signed. */
async function createAndSign(client: ApiClient, originator: Originator, extra: Record<string, unknown>, dueFrom: string): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < OPERATIONS) {
      next += 1;
      const body = directBody(originator);
      const receivables = (body.receivables as Record<string, unknown>[]).map((r, i) => ({ ...r, due_date: addDays(dueFrom, 10 * i) }));
      const created = await client.post('/v1/operations/direct', { ...body, ...extra, receivables, embedded_signature: true }, { token: originator.token, headers: { 'Idempotency-Key': randomUUID() } });
      if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
      const id: string = created.body.id;
      for (const deadline = Date.now() + GIVE_UP_MS; ;) {
        const signers = await client.get(`/v1/operations/${id}/contract/signers`, { token: originator.token });
        if (signers.status === 200) {
          for (const signer of signers.body.signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
          break;
        }
        if (Date.now() > deadline) throw new Error(`operation ${id} never dispatched`);
        await sleep(POLL_MS);
      }
      ids.push(id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return ids;
}

const countIn = (stack: BenchStack, ids: string[], statuses: string[]) => async () =>
  Number((await stack.db('operations').whereIn('id', ids).whereIn('lifecycle_status', statuses).count<{ count: string }[]>({ count: '*' }))[0].count);

async function main(): Promise<void> {
  const stack = await startStack({ worker: true, sandboxEnv: { SANDBOX_SETTLEMENT_DELAY_MS: '0' } });
  try {
    const client = new ApiClient(stack.apiUrl);
    const [originator] = await seedOriginators(stack.db, stack.apiUrl, 1, true);
    const meter = await stackComponents(stack);
    const titles = OPERATIONS * TITLES_PER_OPERATION;
    const today = businessDate(new Date());

    // The clock: N operations brought to PAID while it stands, then one advance past every deadline.
    const start = new Date();
    const clock = await client.post('/v1/test-clocks', { frozen_time: start.toISOString(), name: 'bench' }, { token: originator.token, headers: { 'Idempotency-Key': randomUUID() } });
    if (clock.status !== 201) throw new Error(`clock: ${clock.status} ${clock.text}`);
    const onClock = await createAndSign(client, originator, { test_clock_id: clock.body.id }, addDays(today, 30));
    await untilCount(countIn(stack, onClock, ['PAID']), OPERATIONS, 'PAID on the clock');
    say(`${OPERATIONS} operations PAID on the clock`);
    const beforeAdvance = await quiet(meter);
    const advancedAt = Date.now();
    const advance = await client.post(`/v1/test-clocks/${clock.body.id}/advance`, { frozen_time: new Date(start.getTime() + 130 * DAY_MS).toISOString() },
      { token: originator.token, headers: { 'Idempotency-Key': randomUUID() } });
    if (advance.status !== 200) throw new Error(`advance: ${advance.status} ${advance.text}`);
    for (;;) {
      const read = await client.get(`/v1/test-clocks/${clock.body.id}`, { token: originator.token });
      if (read.body.status === 'ready') break;
      if (Date.now() - advancedAt > GIVE_UP_MS) throw new Error('the clock never became ready');
      await sleep(POLL_MS);
    }
    const readyMs = Date.now() - advancedAt;
    const settledOnClock = await countIn(stack, onClock, ['SETTLED'])();
    const clockCpu = cpuBetween(beforeAdvance, await quiet(meter));

    // The floor: the same overdue work in real time (titles already past due at PAID), less the same window without title work.
    const window = async (dueFrom: string, endStatus: string) => {
      const ids = await createAndSign(client, originator, {}, dueFrom);
      const from = readCpu(meter);
      await untilCount(countIn(stack, ids, [endStatus]), OPERATIONS, endStatus);
      return cpuBetween(from, await quiet(meter));
    };
    const withTitleWork = await window(addDays(today, -120), 'SETTLED');
    const withoutTitleWork = await window(addDays(today, 30), 'PAID');

    const perTitle = (spent: Record<string, number>) => Object.fromEntries(Object.entries(spent).map(([k, ms]) => [k, +(ms / titles).toFixed(3)]));
    const floor = Object.fromEntries(Object.keys(withTitleWork).map((k) => [k, Math.max(0, withTitleWork[k] - (withoutTitleWork[k] ?? 0))]));
    process.stdout.write(`${JSON.stringify({
      operations: OPERATIONS, titles, ready_ms: readyMs, settled_on_clock: settledOnClock,
      clock_cpu_ms_per_title: perTitle(clockCpu), clock_cpu_ms_per_title_total: +(total(clockCpu) / titles).toFixed(3),
      floor_cpu_ms_per_title: perTitle(floor), floor_cpu_ms_per_title_total: +(total(floor) / titles).toFixed(3),
    }, null, 2)}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
