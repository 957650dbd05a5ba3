import { randomBytes, randomUUID } from 'node:crypto';
import { completeCnpj } from '../domain/documents';
import { addDays, businessDate } from '../domain/pricing';
import { signThroughPage } from './sandbox-signing';
import type { PublicApi } from './public-api';

/** How the sandbox is made to record each kind, with the fewest calls that reach it. */
type Scenario = 'created' | 'paid' | 'title_paid' | 'partially_paid' | 'overdue' | 'cancelled' | 'clock_ready';

export const TRIGGERS: Record<string, Scenario> = {
  'operation.created': 'created',
  'operation.approved': 'created',
  'operation.cancelled': 'cancelled',
  'title.cancelled': 'cancelled',
  'operation.contract_signed': 'paid',
  'operation.paid': 'paid',
  'title.paid': 'title_paid',
  'operation.settled': 'title_paid',
  'title.partially_paid': 'partially_paid',
  'title.overdue': 'overdue',
  'payable.opened': 'overdue',
  'pix_charge.expired': 'overdue',
  'test_clock.ready': 'clock_ready',
};

const WAIT_MS = 120_000;
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Operation {
  id: string;
  display_number: string;
  lifecycle_status: string;
  titles: { id: string; outstanding_balance: string; overdue_at: string }[];
}

/** A fresh company's valid CNPJ: a random root, branch 0001. */
const newCnpj = () => completeCnpj(`${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}0001`);

/** One trigger run: what it created, printed as it goes (`print` takes `name id` lines). */
class Run {
  constructor(private readonly api: PublicApi, private readonly print: (line: string) => void) {}

  /** A direct operation of a new assignor with one receivable of 10,000.00 due in 30 days (of the clock, when on one). */
  async create(clock: { id: string; frozen_time: string } | null = null): Promise<Operation> {
    const today = businessDate(clock ? new Date(clock.frozen_time) : new Date());
    const operation = await this.api.post<Operation>('/v1/operations/direct', {
      name: 'Comercial Exemplo Ltda', type: 'J', cnpj: newCnpj(), email: `cli+${randomUUID()}@example.com`, bank: {},
      receivables: [{
        external_id: `CLI-${randomUUID().slice(0, 8)}`, payer_name: 'Payer Ltda', payer_document: newCnpj(), due_date: addDays(today, 30),
        net_future_value: '10000.00', requested_net_future_value: '10000.00',
      }],
      ...(clock ? { test_clock_id: clock.id } : {}),
    });
    this.print(`operation ${operation.id} ${operation.display_number}`);
    for (const title of operation.titles) this.print(`title ${title.id}`);
    return operation;
  }

  async until(operationId: string, status: string): Promise<Operation> {
    return this.poll(`operation ${operationId} ${status}`, async () => {
      const operation = await this.api.get<Operation>(`/v1/operations/${operationId}`);
      return operation.lifecycle_status === status ? operation : null;
    });
  }

  /** From creation to PAID: every signer signs through the sandbox signing page, the sandbox PIX settles. */
  async paid(clock: { id: string; frozen_time: string } | null = null): Promise<Operation> {
    const operation = await this.create(clock);
    await this.until(operation.id, 'CONTRACT_SENT');
    const signers = await this.poll('the contract\'s signers', async () => {
      const answer = await this.api.call<{ signers: { sign_url: string | null }[] }>('GET', `/v1/operations/${operation.id}/contract/signers`);
      return answer.status === 200 ? answer.body.signers : null;
    });
    for (const signer of signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
    return this.until(operation.id, 'PAID');
  }

  async payerPays(titleId: string, amount: string): Promise<void> {
    const payment = await this.api.post<{ id: string }>(`/v1/sandbox/titles/${titleId}/payer-payments`, { paid_amount_brl: amount, external_id: `cli-${randomUUID()}` });
    this.print(`payer_payment ${payment.id}`);
  }

  async clock(frozenTime?: string): Promise<{ id: string; frozen_time: string }> {
    const clock = await this.api.post<{ id: string; frozen_time: string }>('/v1/test-clocks', { name: 'cli trigger', ...(frozenTime ? { frozen_time: frozenTime } : {}) });
    this.print(`test_clock ${clock.id}`);
    return clock;
  }

  /** Advances the clock and waits until every operation on it has caught up. */
  async advance(clockId: string, to: string): Promise<void> {
    await this.api.post(`/v1/test-clocks/${clockId}/advance`, { frozen_time: to }, 200);
    await this.poll(`test clock ${clockId} ready at ${to}`, async () => ((await this.api.get<{ status: string }>(`/v1/test-clocks/${clockId}`)).status === 'ready' ? true : null));
  }

  private async poll<T>(what: string, attempt: () => Promise<T | null>): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const found = await attempt();
      if (found !== null) return found;
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${WAIT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/** Causes one event of `kind` in the sandbox and prints the ids of what it created, one `name id` per line. */
export async function trigger(api: PublicApi, kind: string, print: (line: string) => void): Promise<void> {
  const run = new Run(api, print);
  switch (TRIGGERS[kind]) {
    case 'created':
      await run.create();
      return;
    case 'cancelled': {
      const operation = await run.create();
      await api.post(`/v1/operations/${operation.id}/cancel`, { reason: 'cli trigger' }, 200);
      return;
    }
    case 'paid':
      await run.paid();
      return;
    case 'title_paid':
    case 'partially_paid': {
      const [title] = (await run.paid()).titles;
      await run.payerPays(title.id, TRIGGERS[kind] === 'title_paid' ? title.outstanding_balance : '100.00');
      return;
    }
    case 'overdue': {
      // On a test clock of its own: paid now, then the clock moves past the due date and the grace days.
      const clock = await run.clock();
      const [title] = (await run.paid(clock)).titles;
      await run.advance(clock.id, new Date(Date.parse(title.overdue_at) + HOUR_MS).toISOString());
      const payables = await api.get<{ items: { id: string }[] }>(`/v1/assignor-payables?origin_title_id=${title.id}`);
      for (const payable of payables.items) print(`payable ${payable.id}`);
      return;
    }
    case 'clock_ready': {
      const clock = await run.clock();
      await run.advance(clock.id, new Date(Date.parse(clock.frozen_time) + DAY_MS).toISOString());
      return;
    }
    default:
      throw new Error(`trigger knows ${Object.keys(TRIGGERS).join(', ')}; not ${kind}`);
  }
}
