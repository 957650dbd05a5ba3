/**
 * Issue #26: one test clock holding N paid operations of 10 titles each (default 200), advanced
 * past every due date plus grace in one advance. Reports the wall time from the advance to
 * `ready` (target: 60 s on this 2-core machine) and the CPU per title processed (api, worker,
 * Postgres, Temporal; /proc, so other load on the machine does not count), printed as soon as
 * measured. Then the floor: the same overdue work with no clock, on the real-time path whose
 * deadlines are already past when tracking begins. Each floor operation has nine titles 120 days
 * past due (overdue, with their payables, at once) and one due in 30 days that keeps its pricing
 * inside the policy's CET range (ten titles all past due price at a CET of 0%, which the policy
 * refuses), so it stays PAID; the floor is the CPU from "all signed" to quiet until its 9 N titles are
 * OVERDUE, less the same window for N operations whose titles are not due (no title work), per
 * overdue title.
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

type Receivable = Record<string, unknown>;
/** Ten titles due from `dueFrom`, 10 days apart. */
const dueEveryTenDays = (dueFrom: string) => (r: Receivable, i: number): Receivable => ({ ...r, due_date: addDays(dueFrom, 10 * i) });
/** The floor's titles: the first due in 30 days and worth most of the operation (its CET), the nine others long past due. */
const mostlyPastDue = (today: string) => (r: Receivable, i: number): Receivable => (i === 0
  ? { ...r, due_date: addDays(today, 30), net_future_value: '100000.00', requested_net_future_value: '100000.00' }
  : { ...r, due_date: addDays(today, -120), net_future_value: '10.00', requested_net_future_value: '10.00' });

/** N operations created (their titles shaped by `shape`), each signed through the sandbox page once dispatched; resolves with their ids once all are signed. */
async function createAndSign(client: ApiClient, originator: Originator, extra: Record<string, unknown>, shape: (r: Receivable, i: number) => Receivable): Promise<string[]> {
  const ids: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < OPERATIONS) {
      next += 1;
      const body = directBody(originator);
      const receivables = (body.receivables as Receivable[]).map(shape);
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
const overdueTitlesOf = (stack: BenchStack, ids: string[]) => async () =>
  Number((await stack.db('titles').whereIn('operation_id', ids).where('status', 'OVERDUE').count<{ count: string }[]>({ count: '*' }))[0].count);

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
    const onClock = await createAndSign(client, originator, { test_clock_id: clock.body.id }, dueEveryTenDays(addDays(today, 30)));
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
    const perTitle = (spent: Record<string, number>, processed: number) => ({
      ...Object.fromEntries(Object.entries(spent).map(([k, ms]) => [k, +(ms / processed).toFixed(3)])), total: +(total(spent) / processed).toFixed(3),
    });
    // Printed before the floor runs, so a floor that fails does not lose them.
    process.stdout.write(`${JSON.stringify({ operations: OPERATIONS, titles, ready_ms: readyMs, settled_on_clock: settledOnClock, clock_cpu_ms_per_title: perTitle(clockCpu, titles) }, null, 2)}\n`);

    // The floor: overdue work in real time (nine titles an operation past due at PAID), less the same window without title work.
    const window = async (shape: (r: Receivable, i: number) => Receivable, done: (ids: string[]) => () => Promise<number>, wanted: number, what: string) => {
      const ids = await createAndSign(client, originator, {}, shape);
      const from = readCpu(meter);
      await untilCount(done(ids), wanted, what);
      return cpuBetween(from, await quiet(meter));
    };
    const overdue = OPERATIONS * (TITLES_PER_OPERATION - 1);
    const withTitleWork = await window(mostlyPastDue(today), (ids) => overdueTitlesOf(stack, ids), overdue, 'OVERDUE titles off the clock');
    const withoutTitleWork = await window(dueEveryTenDays(addDays(today, 30)), (ids) => countIn(stack, ids, ['PAID']), OPERATIONS, 'PAID off the clock');
    const floor = Object.fromEntries(Object.keys(withTitleWork).map((k) => [k, Math.max(0, withTitleWork[k] - (withoutTitleWork[k] ?? 0))]));
    process.stdout.write(`${JSON.stringify({ floor_overdue_titles: overdue, floor_cpu_ms_per_title: perTitle(floor, overdue) }, null, 2)}\n`);
  } finally {
    await stack.stop();
  }
}

main().catch((err) => { console.error(err); process.exit(1); });
