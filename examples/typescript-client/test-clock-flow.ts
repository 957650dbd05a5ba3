/**
 * Sandbox test clocks through the generated client: a clock 30 days ahead, a simulation priced at its time, an operation
 * created on it, signed and PAID, then one advance past its title's `overdue_at` and the wait for `ready`: the title is
 * OVERDUE and the assignor owes its repurchase, a payable (`GET /v1/assignor-payables?origin_title_id=`).
 *   npm run dev   # in another terminal
 *   npx tsx examples/typescript-client/test-clock-flow.ts
 */
import { randomUUID } from 'node:crypto';
import { apiClient, expectData } from './client';
import { FlowOptions, runFromCommandLine, signedAndPaid } from './whole-flow';

const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runTestClockFlow(options: FlowOptions) {
  const log = options.log ?? (() => undefined);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const token = expectData(await apiClient(options.baseUrl).POST('/v1/auth/token', { body: { client_id: options.clientId, client_secret: options.clientSecret } }), 'token');
  const api = apiClient(options.baseUrl, token.access_token ?? undefined);

  const start = new Date(Date.now() + 30 * DAY_MS);
  const clock = expectData(await api.POST('/v1/test-clocks', {
    params: { header: { 'Idempotency-Key': randomUUID() } }, body: { frozen_time: start.toISOString(), name: 'example' },
  }), 'create clock');
  log(`clock ${clock.id} at ${clock.frozen_time} (${clock.status})`);

  const receivables = [{
    external_id: `NF-${randomUUID().slice(0, 8)}`, payer_name: 'Acme Compras Ltda', payer_document: options.payerCnpj,
    due_date: new Date(start.getTime() + 30 * DAY_MS).toISOString().slice(0, 10), net_future_value: '10000.00', requested_net_future_value: '10000.00',
  }];
  const priced = expectData(await api.POST('/v1/simulate', { body: { receivables, test_clock_id: clock.id } }), 'simulate');
  log(`priced at the clock's date ${priced.business_date}: ${priced.receivables?.[0]?.qty_days_advanced} days advanced`);

  const created = expectData(await api.POST('/v1/operations/direct', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      name: 'Comercial Exemplo Ltda', type: 'J', cnpj: options.assignorCnpj, email: `finance+${randomUUID().slice(0, 8)}@example.com`,
      bank: {}, receivables, test_clock_id: clock.id,
    },
  }), 'create');
  const operation = expectData(await api.GET('/v1/operations/{id}', { params: { path: { id: created.id } } }), 'read');
  log(`created ${operation.display_number} on clock ${operation.test_clock_id} at ${operation.created_at}`);
  // Signing and the PIX happen in real time while the clock stands still.
  const [title] = (await signedAndPaid(api, created.id, deadline, log)).titles;
  log(`title ${title.external_id} due ${title.due_date}: ${title.grace_days} grace days, overdue at ${title.overdue_at} if unpaid`);

  const advanced = expectData(await api.POST('/v1/test-clocks/{id}/advance', {
    params: { path: { id: clock.id }, header: { 'Idempotency-Key': randomUUID() } }, body: { frozen_time: new Date(Date.parse(title.overdue_at!) + DAY_MS).toISOString() },
  }), 'advance');
  log(`advancing to ${advanced.frozen_time}`);
  for (;;) {
    const read = expectData(await api.GET('/v1/test-clocks/{id}', { params: { path: { id: clock.id } } }), 'read clock');
    if (read.status === 'ready') {
      log(`ready at ${read.frozen_time}`);
      const overdue = expectData(await api.GET('/v1/titles/{id}', { params: { path: { id: title.id } } }), 'read title');
      log(`title ${overdue.external_id}: ${overdue.status}, ${overdue.outstanding_balance} unpaid`);
      const payables = expectData(await api.GET('/v1/assignor-payables', { params: { query: { origin_title_id: title.id } } }), 'payables');
      for (const payable of payables.items) log(`payable ${payable.id}: ${payable.status} ${payable.amount_brl}, due ${payable.due_date}`);
      return { clock: read, operation, businessDate: priced.business_date, title: overdue, payables: payables.items };
    }
    if (Date.now() > deadline) throw new Error('the clock is still advancing');
    await sleep(250);
  }
}

if (require.main === module) runFromCommandLine(runTestClockFlow);
