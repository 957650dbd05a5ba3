import { randomBytes, randomUUID } from 'node:crypto';
import { completeCnpj } from '../domain/documents';
import { composeNfeKey } from '../domain/nfe-key';
import { addDays, businessDate } from '../domain/pricing';
import { signThroughPage } from './sandbox-signing';
import type { PublicApi } from './public-api';

/** How the sandbox is made to record each kind, with the fewest calls that reach it. */
type Scenario =
  | 'created' | 'paid' | 'title_paid' | 'partially_paid' | 'overdue' | 'cancelled' | 'clock_ready' | 'registered' | 'registration_refused'
  | 'contract_error' | 'disbursement_failed' | 'registration_mismatch';

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
  // These need an originator that registers its acquisitions at an escriturador (docs/operations.md).
  'title.registered': 'registered',
  'title.registration_refused': 'registration_refused',
  'registration.reconciliation_mismatch': 'registration_mismatch',
  // The sandbox's magic e-mails (README): the e-sign provider refuses the document, the PIX is refused.
  'operation.contract_error': 'contract_error',
  'operation.disbursement_failed': 'disbursement_failed',
};

/** The kinds `trigger` does not cause, and why: each needs what an integrator's credentials cannot do. */
export const NOT_TRIGGERED: Record<string, string> = {
  'operation.approval_requested': 'needs an operation above the product\'s approval threshold, then staff',
  'operation.denied': 'a staff decision',
  'operation.flagged': 'needs another originator holding the same NF-e',
  'stock.item_registered': 'register a stock item: POST /v1/stock',
  'payable.paid': 'an assignor payable paid by staff',
  'payable.written_off': 'an assignor payable written off by staff',
  'webhook_endpoint.disabled': 'five days of failed deliveries',
  'audit.checkpoint': 'staff actions on your operations, then the hourly checkpoint',
  'ledger.reconciliation_mismatch': 'a PSP statement differing from the books, found by the daily reconciliation',
  'title.disputed': 'the daily re-check of open titles at SEFAZ (POST /v1/sandbox/nfe/{key} sets what it will find)',
};

const WAIT_MS = 120_000;
const NOT_REGISTERING = 'this originator registers no acquisitions at an escriturador: staff set its registration settings first (docs/operations.md, "Escriturador: an originator\'s registration settings")';
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Operation {
  id: string;
  display_number: string;
  lifecycle_status: string;
  titles: { id: string; outstanding_balance: string; overdue_at: string; registration: { status: string } }[];
}

/** A fresh company's valid CNPJ: a random root, branch 0001. */
const newCnpj = () => completeCnpj(`${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}0001`);

/** An NF-e (model 55) the assignor issued on `day`: a random number, its key and fields. */
function nfeOf(assignor: string, day: string) {
  const number = randomBytes(4).readUInt32BE() % 999_999_999 + 1;
  const nfeKey = composeNfeKey({ yearMonth: `${day.slice(2, 4)}${day.slice(5, 7)}`, issuer: assignor, serie: 1, number, code: String(number % 100_000_000) });
  return { nfe_key: nfeKey, nfe_number: String(number), nfe_serie: '1', nfe_issue_date: day };
}

/** One trigger run: what it created, printed as it goes (`print` takes `name id` lines). */
class Run {
  constructor(private readonly api: PublicApi, private readonly print: (line: string) => void) {}

  /**
   * A direct operation of a new assignor with one receivable of 10,000.00 due in 30 days (of the
   * clock, when on one); with `onKey`, backed by an NF-e of the assignor issued today, whose key it is told; the
   * assignor's e-mail in `mailbox` (a sandbox magic value picks a provider's failure).
   */
  async create(clock: { id: string; frozen_time: string } | null = null, onKey?: (nfeKey: string) => void, mailbox = 'cli'): Promise<Operation> {
    const today = businessDate(clock ? new Date(clock.frozen_time) : new Date());
    const assignor = newCnpj();
    const nfe = onKey ? nfeOf(assignor, today) : null;
    if (nfe) onKey!(nfe.nfe_key);
    const operation = await this.api.post<Operation>('/v1/operations/direct', {
      name: 'Comercial Exemplo Ltda', type: 'J', cnpj: assignor, email: `${mailbox}+${randomUUID()}@example.com`, bank: {},
      receivables: [{
        external_id: `CLI-${randomUUID().slice(0, 8)}`, payer_name: 'Payer Ltda', payer_document: newCnpj(), due_date: addDays(today, 30),
        net_future_value: '10000.00', requested_net_future_value: '10000.00', ...(nfe ?? {}),
      }],
      ...(clock ? { test_clock_id: clock.id } : {}),
    });
    this.print(`operation ${operation.id} ${operation.display_number}`);
    for (const title of operation.titles) this.print(`title ${title.id}`);
    return operation;
  }

  /** Until the operation is in `status` (or one of them). */
  async until(operationId: string, status: string | string[]): Promise<Operation> {
    const wanted = [status].flat();
    return this.poll(`operation ${operationId} ${wanted.join(' or ')}`, async () => {
      const operation = await this.api.get<Operation>(`/v1/operations/${operationId}`);
      return wanted.includes(operation.lifecycle_status) ? operation : null;
    });
  }

  /** From creation to PAID: every signer signs through the sandbox signing page, the sandbox PIX settles. */
  async paid(clock: { id: string; frozen_time: string } | null = null, onKey?: (nfeKey: string) => void): Promise<Operation> {
    const operation = await this.create(clock, onKey);
    await this.sign(operation.id);
    return this.until(operation.id, 'PAID');
  }

  /** Every signer of the contract signs through the sandbox signing page. */
  async sign(operationId: string): Promise<void> {
    await this.until(operationId, 'CONTRACT_SENT');
    const signers = await this.poll('the contract\'s signers', async () => {
      const answer = await this.api.call<{ signers: { sign_url: string | null }[] }>('GET', `/v1/operations/${operationId}/contract/signers`);
      return answer.status === 200 ? answer.body.signers : null;
    });
    for (const signer of signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
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
    case 'registered': {
      const [title] = (await run.paid(null, () => undefined)).titles;
      if (title.registration.status !== 'registered') throw new Error(NOT_REGISTERING);
      return;
    }
    case 'registration_mismatch': {
      // Another financier takes the duplicata after our act is in force; the reconciliation, run now, finds it.
      let key = '';
      const [title] = (await run.paid(null, (nfeKey) => { key = nfeKey; })).titles;
      if (title.registration.status !== 'registered') throw new Error(NOT_REGISTERING);
      await api.post('/v1/sandbox/registrar/transfers', { nfe_key: key, holder_document: newCnpj() }, 200);
      await api.post('/v1/sandbox/registrar/reconcile', undefined, 200);
      return;
    }
    case 'registration_refused': {
      // Another financier acquires the duplicata after creation: our transfer before the PIX is refused.
      let key = '';
      const operation = await run.create(null, (nfeKey) => { key = nfeKey; });
      await api.post('/v1/sandbox/registrar/transfers', { nfe_key: key, holder_document: newCnpj() }, 200);
      await run.sign(operation.id);
      // An originator that registers nothing pays instead.
      const ended = await run.until(operation.id, ['CANCELLED', 'PAID']);
      if (ended.titles[0].registration.status !== 'refused') throw new Error(NOT_REGISTERING);
      return;
    }
    case 'contract_error': {
      const operation = await run.create(null, undefined, 'esign-fail-create');
      await run.until(operation.id, 'CONTRACT_ERROR');
      return;
    }
    case 'disbursement_failed': {
      const operation = await run.create(null, undefined, 'pix-reject');
      await run.sign(operation.id);
      await run.until(operation.id, 'DISBURSEMENT_FAILED');
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
