/**
 * The whole integration, creation to SETTLED, then the operation's events pulled back, through the generated client only:
 *   npm run dev   # in another terminal
 *   npx tsx examples/typescript-client/whole-flow.ts
 * BASE_URL, CLIENT_ID and CLIENT_SECRET default to the dev stack's originator A.
 */
import { randomUUID } from 'node:crypto';
import { apiClient, expectData } from './client';

export interface FlowOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The assignor's CNPJ (digits); one with no open operations keeps the credit limits clear. */
  assignorCnpj: string;
  payerCnpj: string;
  log?: (line: string) => void;
  timeoutMs?: number;
}

const isCode = (error: unknown, code: string) => (error as { detail?: { code?: string } } | undefined)?.detail?.code === code;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function isoDateIn(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The signing page is the e-sign provider's, not our API: a person opens it and presses Sign. */
async function signThroughSandboxPage(signUrl: string): Promise<void> {
  const html = await (await fetch(signUrl)).text();
  const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
  const button = /<button type="submit" name="([^"]+)" value="([^"]+)"/.exec(html);
  if (!action || !button) throw new Error('the signing page has no signing form');
  const signed = await fetch(new URL(action.replace(/&amp;/g, '&'), signUrl), {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ [button[1]]: button[2] }).toString(),
  });
  if (!signed.ok) throw new Error(`signing answered ${signed.status}`);
}

type Api = ReturnType<typeof apiClient>;

/** Reads the operation until its `lifecycle_status` is `wanted`. */
export async function untilStatus(api: Api, id: string, wanted: string, deadline: number) {
  for (;;) {
    const op = expectData(await api.GET('/v1/operations/{id}', { params: { path: { id } } }), 'read');
    if (op.lifecycle_status === wanted) return op;
    if (Date.now() > deadline) throw new Error(`still ${op.lifecycle_status}, waiting for ${wanted}`);
    await sleep(250);
  }
}

/** Every signer signs through the sandbox signing page once the contract is out; then the PIX settles and the operation is PAID. */
export async function signedAndPaid(api: Api, id: string, deadline: number, log: (line: string) => void) {
  // The contract goes out on its own after approval; the signers route answers 404/409 until then.
  let signers;
  for (;;) {
    const res = await api.GET('/v1/operations/{id}/contract/signers', { params: { path: { id } } });
    if (res.data) { signers = res.data; break; }
    if (![404, 409].includes(res.response.status) || Date.now() > deadline) throw new Error(`signers: ${res.response.status} ${JSON.stringify(res.error)}`);
    await sleep(250);
  }
  for (const signer of signers.signers) if (signer.sign_url) await signThroughSandboxPage(signer.sign_url);
  log(`signed by ${signers.signers.map((s) => s.name).join(', ')}`);
  return untilStatus(api, id, 'PAID', deadline);
}

export async function runWholeFlow(options: FlowOptions): Promise<{ operationId: string; status: string; events: { type: string; sequence: number }[] }> {
  const log = options.log ?? (() => undefined);
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const anonymous = apiClient(options.baseUrl);

  const token = expectData(await anonymous.POST('/v1/auth/token', { body: { client_id: options.clientId, client_secret: options.clientSecret } }), 'token');
  // A replayed token answer carries no token (one-time secret); a fresh exchange always does.
  const api = apiClient(options.baseUrl, token.access_token ?? undefined);
  log(`token with scopes ${token.scopes.join(' ')}`);

  const receivables = [{
    external_id: `NF-${randomUUID().slice(0, 8)}`, payer_name: 'Acme Compras Ltda', payer_document: options.payerCnpj,
    due_date: isoDateIn(30), net_future_value: '10000.00', requested_net_future_value: '10000.00',
  }];
  const simulation = expectData(await api.POST('/v1/simulate', { body: { receivables } }), 'simulate');
  log(`simulated: ${simulation.opr_net_present_liquid_value} to the assignor for ${simulation.opr_gross_future_value}`);

  const created = expectData(await api.POST('/v1/operations/direct', {
    params: { header: { 'Idempotency-Key': randomUUID() } },
    body: {
      name: 'Comercial Exemplo Ltda', type: 'J', cnpj: options.assignorCnpj, email: `finance+${randomUUID().slice(0, 8)}@example.com`,
      bank: {}, embedded_signature: true, receivables,
    },
  }), 'create');
  log(`created ${created.display_number} (${created.status})`);
  const id = created.id;

  const paid = await signedAndPaid(api, id, deadline, log);
  log(`PAID: ${paid.opr_net_present_liquid_value} by PIX`);

  for (const title of paid.titles) {
    // The same external_id makes every attempt the same payment: a retry never pays twice.
    const pay = () => api.POST('/v1/sandbox/titles/{id}/payer-payments', {
      params: { path: { id: title.id } },
      body: { paid_amount_brl: title.requested_net_future_value, external_id: `boleto-${title.id}` },
    });
    let result = await pay();
    // Title tracking starts just after the operation reads PAID; until then the answer is this 409.
    while (isCode(result.error, 'title_not_payable_yet') && Date.now() < deadline) {
      await sleep(250);
      result = await pay();
    }
    const payment = expectData(result, 'payer payment');
    log(`payer paid title ${title.external_id}: ${payment.title_status}`);
  }
  const settled = await untilStatus(api, id, 'SETTLED', deadline);
  log(`SETTLED: ${settled.display_number}`);

  // What the webhooks carried, pulled: every event about this operation, newest first, page by page.
  const events: { type: string; sequence: number }[] = [];
  for (let after: string | undefined; ;) {
    const page = expectData(await api.GET('/v1/events', { params: { query: { object_id: id, limit: 100, starting_after: after } } }), 'events');
    events.push(...page.items.map((event) => ({ type: event.event_type, sequence: event.sequence })));
    if (!page.has_more) break;
    after = page.items.at(-1)!.event_id;
  }
  // `sequence` orders an object's events whatever order they arrived in.
  events.sort((a, b) => a.sequence - b.sequence);
  log(`events: ${events.map((event) => `${event.sequence} ${event.type}`).join(', ')}`);
  return { operationId: id, status: settled.lifecycle_status!, events };
}

/** A valid CNPJ from 12 random digits (check digits computed), so each run is a fresh assignor. */
export function randomCnpj(): string {
  const digits = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10));
  for (const weights of [[5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]]) {
    const rest = weights.reduce((sum, w, i) => sum + w * digits[i], 0) % 11;
    digits.push(rest < 2 ? 0 : 11 - rest);
  }
  return digits.join('');
}

/** Runs a flow from the command line: BASE_URL, CLIENT_ID and CLIENT_SECRET default to the dev stack's originator A. */
export function runFromCommandLine(flow: (options: FlowOptions) => Promise<unknown>): void {
  const env = process.env;
  flow({
    baseUrl: env.BASE_URL ?? 'http://127.0.0.1:8000',
    clientId: env.CLIENT_ID ?? 'zk_sbx_demo_a',
    clientSecret: env.CLIENT_SECRET ?? 'sk_sbx_demo_a_secret',
    assignorCnpj: randomCnpj(),
    payerCnpj: randomCnpj(),
    log: (line) => console.log(line),
  }).catch((err) => { console.error(err); process.exit(1); });
}

if (require.main === module) runFromCommandLine(runWholeFlow);
