// Load through the public HTTP API as an integrator drives it: an operation from creation to
// PAID (signed through the sandbox's signing pages) and every title paid. Shared by the fault run
// and the cluster bench. Each step is retried until `deadline`, so faults delay a journey but a
// journey never gives up early.
import { randomInt, randomUUID } from 'node:crypto';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const DEMO = { client_id: 'zk_sbx_demo_a', client_secret: 'sk_sbx_demo_a_secret' };

/** Every request through here, recorded with its status, latency and error code. */
export class ApiDriver {
  constructor(apiUrl) {
    this.apiUrl = apiUrl;
    this.requests = [];
    this.token = null;
  }

  // The default timeout is above the api's longest own deadline (20 s for a workflow update), so a
  // request without an answer means the api gave none, not that this client gave up first.
  async call(method, url, { body, headers = {}, timeoutMs = 25_000, auth = true } = {}) {
    const started = Date.now();
    const record = { method, url: url.replace(/[0-9a-f-]{36}/g, ':id'), id: url.match(/[0-9a-f-]{36}/)?.[0] ?? null, started, status: 0, ms: 0, code: null };
    this.requests.push(record);
    try {
      const res = await fetch(`${this.apiUrl}${url}`, {
        method, signal: AbortSignal.timeout(timeoutMs),
        headers: { ...(body ? { 'Content-Type': 'application/json' } : {}), ...(auth && this.token ? { Authorization: `Bearer ${this.token}` } : {}), ...headers },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      record.status = res.status;
      record.ms = Date.now() - started;
      const json = text ? JSON.parse(text) : null;
      record.code = typeof json?.detail === 'string' ? json.detail : json?.detail?.code ?? null;
      return { status: res.status, body: json };
    } catch (err) {
      record.ms = Date.now() - started;
      record.error = err.name === 'TimeoutError' ? 'timeout' : (err.cause?.code ?? err.message);
      return { status: 0, body: null };
    }
  }

  /** A staff user's token (password sign-in, no TOTP: dev staff), renewed every five minutes while the process runs. */
  async loginStaff(email, password) {
    const signIn = () => this.call('POST', '/v1/auth/login', { body: { email, password }, auth: false });
    const first = await signIn();
    if (first.status !== 200) throw new Error(`staff sign-in of ${email} answered ${first.status}`);
    this.token = first.body.access_token;
    setInterval(async () => {
      const renewed = await signIn();
      if (renewed.status === 200) this.token = renewed.body.access_token;
    }, 300_000).unref();
  }

  /** Demo originator A's token, renewed every two minutes while the process runs. */
  async login() {
    const first = await this.call('POST', '/v1/auth/token', { body: DEMO, auth: false });
    if (first.status !== 200) throw new Error(`token exchange answered ${first.status}`);
    this.token = first.body.access_token;
    setInterval(async () => {
      const renewed = await this.call('POST', '/v1/auth/token', { body: DEMO, auth: false });
      if (renewed.status === 200) this.token = renewed.body.access_token;
    }, 120_000).unref();
  }
}

function cnpj() {
  const base = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10));
  const check = (ds, weights) => { const r = ds.reduce((s, d, i) => s + d * weights[i], 0) % 11; return r < 2 ? 0 : 11 - r; };
  const d1 = check(base, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = check([...base, d1], [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return [...base, d1, d2].join('');
}

/**
 * A fresh NF-e (model 55) access key issued this month by `issuer`, with its check digit
 * (domain/nfe-key.ts's composeNfeKey and nfeCheckDigit: this file runs without tsx).
 */
function nfeKeyOf(issuer) {
  const now = new Date();
  const yearMonth = `${String(now.getUTCFullYear()).slice(2)}${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const first43 = `35${yearMonth}${issuer}55001${String(randomInt(1, 999_999_999)).padStart(9, '0')}1${String(randomInt(0, 99_999_999)).padStart(8, '0')}`;
  let sum = 0;
  for (let i = first43.length - 1, weight = 2; i >= 0; i -= 1, weight = weight === 9 ? 2 : weight + 1) sum += Number(first43[i]) * weight;
  const rest = sum % 11;
  return `${first43}${rest < 2 ? 0 : 11 - rest}`;
}

async function until(what, attempt, deadline, pollMs) {
  for (;;) {
    const value = await attempt();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached`);
    await sleep(pollMs);
  }
}

async function signThroughPage(signUrl) {
  try {
    const page = await fetch(signUrl, { signal: AbortSignal.timeout(5_000) });
    const html = await page.text();
    if (page.status !== 200) return null;
    if (!html.includes('<form')) return true; // signed already
    const action = /<form method="post" action="([^"]+)"/.exec(html)[1].replace(/&amp;/g, '&');
    const res = await fetch(new URL(action, signUrl), { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'decision=sign', signal: AbortSignal.timeout(5_000) });
    return res.status === 200;
  } catch {
    return null;
  }
}

/**
 * The payer pays a title's PIX charge through the sandbox (issue #31), once: the charge is issued
 * after PAID, and a PIX already paid is on its way to the title (or waits for the sweep, its
 * webhook lost). A pay whose answer was lost is not paid again blindly: the PSP refuses a charge
 * it has concluded (409 pix_charge_not_active), and a charge it never saw paid is paid again.
 */
async function payByPix(driver, j, title, webhook, deadline, pollMs) {
  await until('title paid by PIX', async () => {
    const read = await driver.call('GET', `/v1/titles/${title.id}`);
    if (read.status !== 200) return null;
    if (read.body.status === 'PAID') return true;
    if (j.pix.some((p) => p.titleId === title.id) || read.body.pix_charge?.status !== 'ATIVA') return null;
    const paid = await driver.call('POST', `/v1/sandbox/titles/${title.id}/pix`, { body: { webhook } });
    if (paid.status === 202) j.pix.push({ titleId: title.id, endToEndId: paid.body.end_to_end_id, webhook });
    if (paid.status === 409 && paid.body?.detail?.code === 'pix_charge_not_active') j.pix.push({ titleId: title.id, endToEndId: null, webhook });
    return null;
  }, deadline, pollMs);
}

/**
 * Staff approvals of an operation waiting for them, one per approver's driver, each retried through
 * faults until it took effect: 200, or a 409 saying it already had (this approver's approval landed
 * on an earlier try that got no answer, or the pair completed and the operation moved on).
 */
async function approveAsStaff(driver, approvers, j, deadline, pollMs) {
  await until('WAITING_APPROVAL', async () => (await driver.call('GET', `/v1/operations/${j.id}`)).body?.lifecycle_status === 'WAITING_APPROVAL', deadline, pollMs);
  j.stage = 'waiting_approval';
  for (const approver of approvers) {
    await until('approved', async () => {
      const r = await approver.call('POST', `/v1/backoffice/operations/${j.id}/approve`, { body: { note: 'chaos four-eyes' } });
      // A workflow's refusal carries its code as the whole `detail`, a validation's inside it.
      const code = typeof r.body?.detail === 'string' ? r.body.detail : r.body?.detail?.code;
      if (r.status === 200 || code === 'approver_already_approved') return true;
      if (code === 'operation_cannot_be_approved') return (await driver.call('GET', `/v1/operations/${j.id}`)).body?.lifecycle_status !== 'WAITING_APPROVAL';
      return null;
    }, deadline, pollMs);
  }
  j.stage = 'approved';
}

/**
 * Until the operation ends, it must end CANCELLED with `receivable_encumbered`: another financier
 * took one of its duplicatas at the escriturador after creation, so no PIX may leave.
 */
async function cancelledAsEncumbered(driver, j, deadline, pollMs) {
  const read = await until('CANCELLED', async () => {
    const r = await driver.call('GET', `/v1/operations/${j.id}`);
    return ['CANCELLED', 'PAID', 'SETTLED'].includes(r.body?.lifecycle_status) ? r.body : null;
  }, deadline, pollMs);
  if (read.lifecycle_status !== 'CANCELLED' || read.cancellation_reason !== 'receivable_encumbered') {
    throw new Error(`an operation whose duplicata another financier holds ended ${read.lifecycle_status} (${read.cancellation_reason})`);
  }
}

/**
 * One operation of two titles (1,000.00 each, or `amount` with staff approval) from creation to
 * PAID, then both titles paid by their payers: the second by PIX when `pixWebhook` is given
 * ('once', or 'lost' for the sweep to find), else by a payment the sandbox records. With
 * `approvers` (staff drivers) the amount is above the auto-approval and four-eyes limits, and each
 * approves in turn. With `nfe` each receivable is an NF-e (model 55) of the assignor, so an
 * originator that registers records its acquisitions at the escriturador before the PIX; with
 * `encumbered` too, another financier acquires the second NF-e's duplicatas right after creation
 * (the sandbox's control) and the journey ends once the operation is CANCELLED
 * `receivable_encumbered`. Progress is written to `j` (id, stage, createdAt, paidAt, the PIX paid)
 * so an audit can tell where a journey stopped.
 */
export async function journey(driver, j, { deadline, pollMs = 500, payTitles = true, pixWebhook = null, approvers = null, amount = '1000.00', nfe = false, encumbered = false }) {
  const due = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const key = randomUUID();
  const assignor = cnpj();
  const body = {
    name: 'Load Comercial Ltda', type: 'J', cnpj: assignor, email: `load+${randomUUID()}@example.com`, bank: {},
    receivables: [1, 2].map((n) => ({
      external_id: `NF-${randomUUID().slice(0, 8)}-${n}`, payer_name: 'Payer Ltda', payer_document: cnpj(), due_date: due, net_future_value: amount, requested_net_future_value: amount,
      ...(nfe ? { nfe_key: nfeKeyOf(assignor) } : {}),
    })),
  };
  j.startedAt = Date.now();
  const created = await until('201', async () => {
    const r = await driver.call('POST', '/v1/operations/direct', { body, headers: { 'Idempotency-Key': key } });
    if (r.status === 201) return r.body;
    if (r.status !== 0 && r.status < 500 && r.status !== 429 && r.status !== 409) throw new Error(`creation answered ${r.status} ${JSON.stringify(r.body)}`);
    return null;
  }, deadline, pollMs);
  j.id = created.id;
  j.stage = 'created';
  if (encumbered) {
    const competitor = { nfe_key: body.receivables[1].nfe_key, holder_document: cnpj() };
    await until('duplicata taken', async () => (await driver.call('POST', '/v1/sandbox/registrar/transfers', { body: competitor })).status === 200, deadline, pollMs);
    j.stage = 'duplicata_taken';
  }
  if (approvers) await approveAsStaff(driver, approvers, j, deadline, pollMs);
  const status = async () => (await driver.call('GET', `/v1/operations/${j.id}`)).body?.lifecycle_status;
  await until('CONTRACT_SENT', async () => {
    const now = await status();
    // The provider failed every try of the automatic dispatch (it was down): the operation waits
    // for a re-dispatch, which an integrator sends as the contract says.
    if (now === 'CONTRACT_ERROR') {
      j.redispatched = (j.redispatched ?? 0) + 1;
      await driver.call('POST', `/v1/operations/${j.id}/contract/send-for-signature`, { body: {} });
    }
    return ['CONTRACT_SENT', 'SIGNED', 'DISBURSING', 'PAID', 'SETTLED'].includes(now);
  }, deadline, pollMs);
  j.stage = 'contract_sent';
  j.sentAt = Date.now();
  const signers = await until('signers', async () => {
    const r = await driver.call('GET', `/v1/operations/${j.id}/contract/signers`);
    return r.status === 200 ? r.body.signers : null;
  }, deadline, pollMs);
  for (const signer of signers) {
    if (signer.sign_url) await until('signed', () => signThroughPage(signer.sign_url), deadline, pollMs);
  }
  j.stage = 'signed';
  j.signedAt = Date.now();
  if (encumbered) {
    await cancelledAsEncumbered(driver, j, deadline, pollMs);
    j.stage = 'cancelled_encumbered';
    return;
  }
  await until('PAID', async () => ['PAID', 'SETTLED'].includes(await status()), deadline, pollMs);
  j.paidAt = Date.now();
  j.stage = 'paid';
  if (!payTitles) return;
  j.pix = [];
  for (const [n, title] of created.titles.entries()) {
    if (pixWebhook && n === 1) {
      await payByPix(driver, j, title, pixWebhook, deadline, pollMs);
      continue;
    }
    await until('title paid', async () => {
      const read = await driver.call('GET', `/v1/titles/${title.id}`);
      if (read.status !== 200) return null;
      if (read.body.status === 'PAID') return true;
      await driver.call('POST', `/v1/sandbox/titles/${title.id}/payer-payments`, { body: { paid_amount_brl: read.body.outstanding_balance, external_id: `boleto-${title.id}` } });
      return null;
    }, deadline, pollMs);
  }
  j.stage = 'titles_paid';
}
