// A black-box run of every operation the sandbox api documents, as an integrator and an operator
// drive it over HTTP, with its usual errors: refused credentials, missing tokens, a scope short,
// unknown ids, a reused Idempotency-Key, malformed and over-long input, unsigned callbacks. `npm
// run prism` sends it through Prism's validation proxy (scripts/lib/prism.mjs). A request marked
// `invalid` breaks the document on purpose (Prism then reports the request, not the answer); every
// other request must be valid, and every answer must match the document.
import { createHmac, randomUUID } from 'node:crypto';
import { DEMO, enrolmentTokenOf, PREPARED_ASSIGNOR_CPF, totpNow } from './contract-stack.mjs';

const day = (days) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
const receivable = (externalId, extra = {}) => ({
  external_id: externalId, payer_name: 'Pagador Prism Ltda', payer_document: '11222333000181', due_date: day(30), net_future_value: '10000.00', ...extra,
});
const company = (cnpj) => ({ name: 'Comercial Prism Ltda', type: 'J', cnpj, email: 'finance@prism.example', bank: {} });
const base64 = (text) => Buffer.from(text).toString('base64');

function signed(secret, body) {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const raw = JSON.stringify(body);
  return { 'X-Provider-Timestamp': timestamp, 'X-Provider-Signature': `v1=${createHmac('sha256', secret).update(`${timestamp}.${raw}`).digest('hex')}` };
}

/** `api.call(method, path, options)` answers `{ status, body }`; options: token, body, form, headers, basic, invalid. */
export async function blackBoxFlow(api, { prepared, env }) {
  const write = (token, body, extra = {}) => ({ token, body, headers: { 'Idempotency-Key': randomUUID() }, ...extra });
  const unknownId = randomUUID();

  // Platform and discovery: public, not rate limited.
  for (const route of ['/v1/health', '/v1/flow', '/v1/openapi.json', '/v1/openapi/1.6.0.json', '/v1/.well-known/jwks.json', '/.well-known/oauth-authorization-server']) await api.call('GET', route);
  await api.call('GET', '/v1/health?probe=%00');

  // Tokens: JSON, form and HTTP Basic; a wrong secret each way; a scope the client does not have.
  const { body: { access_token: token } } = await api.call('POST', '/v1/auth/token', { body: { client_id: DEMO.clientId, client_secret: DEMO.clientSecret } });
  await api.call('POST', '/v1/auth/token', { form: { grant_type: 'client_credentials', client_id: DEMO.clientId, client_secret: DEMO.clientSecret, scope: 'operation:read' } });
  await api.call('POST', '/v1/auth/token', { form: { grant_type: 'client_credentials' }, basic: [DEMO.clientId, 'wrong-secret'] });
  await api.call('POST', '/v1/auth/token', { body: { client_id: DEMO.clientId, client_secret: 'wrong-secret' } });
  await api.call('POST', '/v1/auth/token', { body: { client_id: DEMO.clientId, client_secret: DEMO.clientSecret, scopes: ['backoffice:admin'] } });
  const { body: { access_token: readOnly } } = await api.call('POST', '/v1/auth/token', { body: { client_id: DEMO.clientId, client_secret: DEMO.clientSecret, scopes: ['operation:read'] } });
  await api.call('GET', '/v1/auth/me', { token });
  await api.call('GET', '/v1/operations', { invalid: true });
  await api.call('GET', '/v1/operations', { token: 'not-a-token' });
  await api.call('POST', '/v1/webhooks', write(readOnly, { url: 'https://127.0.0.1:9/prism', events: ['operation.created'] }));

  // Staff: login (a wrong password first), and the account an admin invites, who enrols.
  await api.call('POST', '/v1/auth/login', { body: { email: DEMO.email, password: 'not-the-password' } });
  const { body: { access_token: staff } } = await api.call('POST', '/v1/auth/login', { body: { email: DEMO.email, password: DEMO.password } });
  // The stack's preparation signed both admins in moments ago: within the same 30 s step a code is a
  // replay, refused 401 (a documented answer too), and the flow goes on with the prepared token.
  const adminLogin = await api.call('POST', '/v1/auth/login', { body: { email: DEMO.admin.email, password: DEMO.admin.password, totp: await totpNow(DEMO.admin.totpSecret) } });
  const admin = adminLogin.body?.access_token ?? prepared.adminToken;
  const invited = await api.call('POST', '/v1/backoffice/users', write(admin, { email: `viewer-${randomUUID()}@prism.example`, name: 'Prism Viewer', role: 'viewer' }));
  await api.call('POST', '/v1/auth/enrol', { body: { enrolment_token: 'no-such-token-at-all', password: 'a long enough password' } });
  await api.call('POST', '/v1/auth/enrol', { body: { enrolment_token: await enrolmentTokenOf(env.MAIL_SANDBOX_URL, invited.body?.email), password: 'a long enough password' } });
  await api.call('GET', '/v1/backoffice/users', { token: admin });
  await api.call('PATCH', `/v1/backoffice/users/${invited.body?.id}`, write(admin, { status: 'disabled' }));
  await api.call('PATCH', `/v1/backoffice/users/${unknownId}`, write(admin, { role: 'analyst' }));
  await api.call('GET', '/v1/backoffice/users', { token: staff });
  // Granting approver takes a second admin: 202 with the pending grant, refused to its requester, applied by the other.
  const granting = await api.call('POST', '/v1/backoffice/users', write(admin, { email: `approver-${randomUUID()}@prism.example`, name: 'Prism Approver', role: 'approver' }));
  await api.call('GET', '/v1/backoffice/role-grants', { token: admin });
  await api.call('POST', `/v1/backoffice/role-grants/${granting.body?.pending_grant?.id}/confirm`, write(admin, undefined));
  const secondAdminLogin = await api.call('POST', '/v1/auth/login', { body: { email: DEMO.admin2.email, password: DEMO.admin2.password, totp: await totpNow(DEMO.admin2.totpSecret) } });
  const secondAdmin = secondAdminLogin.body?.access_token ?? prepared.secondAdminToken;
  await api.call('POST', `/v1/backoffice/role-grants/${granting.body?.pending_grant?.id}/confirm`, write(secondAdmin, undefined));
  await api.call('POST', `/v1/backoffice/role-grants/${unknownId}/confirm`, write(secondAdmin, undefined));

  // Assignors and products.
  await api.call('POST', '/v1/assignors', write(token, { name: 'Cedente Prism', type: 'F', cpf: '39053344705', email: 'cedente@prism.example' }));
  await api.call('POST', '/v1/assignors', { ...write(token, { name: 'Cedente Prism', type: 'F', email: 'cedente@prism.example' }), invalid: true });
  await api.call('GET', '/v1/assignors', { token });
  await api.call('GET', `/v1/assignors/${prepared.assignorId}`, { token });
  await api.call('GET', `/v1/assignors/${unknownId}`, { token });
  // No certificate of the assignor's in a black-box run: bytes that are no PKCS#12 (422), then none stored (404).
  await api.call('PUT', `/v1/assignors/${prepared.assignorId}/nfe-certificate`, write(token, { pfx: Buffer.from('not a pfx').toString('base64'), password: 'prism' }));
  await api.call('GET', `/v1/assignors/${prepared.assignorId}/nfe-certificate`, { token });
  await api.call('DELETE', `/v1/assignors/${prepared.assignorId}/nfe-certificate`, write(token, undefined));
  await api.call('GET', '/v1/products', { token });

  // Simulation: a percent float validators misread, an amount as a JSON number, malformed and over-long input, too many receivables.
  await api.call('POST', '/v1/simulate', { token, body: { receivables: [receivable('PRISM-SIM-1', { requested_net_future_value_percent: 33.33 })] } });
  await api.call('POST', '/v1/simulate', { token, body: { receivables: [receivable('PRISM-SIM-2', { net_future_value: 10000.07, requested_net_future_value: '5000' })] } });
  await api.call('POST', '/v1/simulate', { token, body: { receivables: [receivable('PRISM-SIM-3', { net_future_value: '10,000.00', requested_net_future_value: '5000' })] }, invalid: true });
  await api.call('POST', '/v1/simulate', { token, body: { receivables: [receivable('PRISM-SIM-4', { net_future_value: '10000.00'.padStart(41, '0') })] }, invalid: true });
  const many = Array.from({ length: 1001 }, (_, n) => receivable(`PRISM-MANY-${n}`, { requested_net_future_value: '100.00' }));
  await api.call('POST', '/v1/simulate', { token, body: { receivables: many }, invalid: true });

  // Operations: direct creation (and an Idempotency-Key reused with another body), reads, contract, cancel.
  const key = randomUUID();
  const created = await api.call('POST', '/v1/operations/direct', { token, headers: { 'Idempotency-Key': key }, body: { ...company('11444777000161'), receivables: [receivable('PRISM-OP-1', { requested_net_future_value: '5000.00' })] } });
  await api.call('POST', '/v1/operations/direct', { token, headers: { 'Idempotency-Key': key }, body: { ...company('11444777000161'), receivables: [receivable('PRISM-OP-2', { requested_net_future_value: '5000.00' })] } });
  const operationId = created.body?.id ?? prepared.operationId;
  await api.call('GET', '/v1/operations', { token });
  await api.call('GET', `/v1/operations/${operationId}`, { token });
  await api.call('GET', `/v1/operations/${unknownId}`, { token });
  await api.call('GET', `/v1/operations/${operationId}/contract/signers`, { token });
  await api.call('POST', `/v1/operations/${operationId}/contract/send-for-signature`, write(token, {}));
  await api.call('GET', `/v1/titles?operation_id=${prepared.operationId}`, { token });
  await api.call('GET', `/v1/titles/${prepared.titleId}`, { token });
  await api.call('GET', `/v1/titles/${unknownId}`, { token });
  await api.call('POST', `/v1/sandbox/titles/${prepared.titleId}/payer-payments`, write(token, { paid_amount_brl: '10.00', external_id: `PRISM-PAY-${randomUUID()}` }));

  // Backoffice: the queue, an operation's page, decisions, retries, payer payments, a cancellation, the system page, the audit trail and its checkpoints.
  await api.call('GET', '/v1/backoffice/approval-queue?min_amount=100.00', { token: staff });
  await api.call('GET', `/v1/backoffice/operations/${prepared.operationId}`, { token: staff });
  await api.call('POST', `/v1/backoffice/operations/${prepared.operationId}/approve`, write(staff, { note: 'prism' }));
  await api.call('POST', `/v1/backoffice/operations/${unknownId}/deny`, write(staff, { reason: 'prism' }));
  await api.call('POST', `/v1/backoffice/operations/${prepared.operationId}/retry-disbursement`, write(staff, {}));
  await api.call('POST', `/v1/backoffice/operations/${prepared.operationId}/contract/send-for-signature`, write(staff, {}));
  await api.call('POST', `/v1/backoffice/titles/${prepared.titleId}/payer-payments`, write(staff, { paid_amount_brl: '10.00', external_id: `PRISM-BO-${randomUUID()}` }));
  await api.call('POST', `/v1/operations/${operationId}/cancel`, write(token, { reason: 'prism run' }));
  await api.call('POST', `/v1/backoffice/operations/${prepared.cancellableOperationId}/cancel`, write(staff, { reason: 'prism staff cancel' }));
  await api.call('POST', `/v1/backoffice/operations/${unknownId}/cancel`, write(staff, { reason: 'prism staff cancel' }));
  const originators = await api.call('GET', '/v1/backoffice/originators', { token: staff });
  await api.call('GET', `/v1/backoffice/webhooks?originator_id=${originators.body?.items?.[0]?.id ?? unknownId}`, { token: staff });
  await api.call('GET', '/v1/backoffice/stuck-operations', { token: staff });
  await api.call('GET', '/v1/backoffice/system', { token: staff });
  await api.call('GET', '/v1/health/deep', { token: staff });
  await api.call('GET', '/v1/backoffice/audit-events?limit=5', { token: staff });
  await api.call('GET', '/v1/backoffice/audit-events.csv?limit=5', { token: staff });
  await api.call('POST', '/v1/backoffice/audit/checkpoints', write(staff, undefined));
  await api.call('POST', '/v1/backoffice/audit/checkpoints', write(admin, undefined));
  await api.call('GET', '/v1/audit/checkpoints?limit=5', { token });

  // The books: yesterday's reconciliation (clean: nothing to accept, a documented 409), its runs, one run, the trial balance.
  const reconciled = await api.call('POST', '/v1/backoffice/ledger/reconcile', write(staff, {}));
  const runs = await api.call('GET', '/v1/backoffice/ledger/reconciliations', { token: staff });
  const runId = reconciled.body?.reconciliations?.[0]?.id ?? runs.body?.items?.[0]?.id ?? unknownId;
  await api.call('GET', `/v1/backoffice/ledger/reconciliations/${runId}`, { token: staff });
  await api.call('POST', `/v1/backoffice/ledger/reconciliations/${runId}/accept`, write(staff, { reason: 'prism' }));
  await api.call('GET', '/v1/backoffice/ledger/trial-balance', { token: staff });
  await api.call('GET', '/v1/backoffice/approval-queue', { token });

  // Temporal Web's codec: a session cookie, encode then decode, and the session closed.
  await api.call('POST', '/v1/backoffice/codec/session', { token: staff });
  const encoded = await api.call('POST', '/v1/backoffice/codec/encode', { token: staff, body: { payloads: [{ metadata: { encoding: base64('json/plain') }, data: base64('{"prism":true}') }] } });
  await api.call('POST', '/v1/backoffice/codec/decode', { token: staff, body: encoded.body ?? { payloads: [] } });
  await api.call('DELETE', '/v1/backoffice/codec/session', { token: staff });

  // Stock: registration (and one refused), reads, a change, anticipation, cancellation.
  const stock = await api.call('POST', '/v1/stock', write(token, { assignor_document: PREPARED_ASSIGNOR_CPF, items: [receivable('PRISM-STOCK-1'), receivable('PRISM-STOCK-2')] }));
  await api.call('POST', '/v1/stock', { ...write(token, { assignor_document: PREPARED_ASSIGNOR_CPF, items: [] }), invalid: true });
  const [first, second] = stock.body?.items?.map((item) => item.id) ?? [unknownId, unknownId];
  await api.call('GET', '/v1/stock', { token });
  await api.call('GET', `/v1/stock/${first}`, { token });
  await api.call('PATCH', `/v1/stock/${first}`, write(token, { nfe_number: '123456' }));
  await api.call('POST', '/v1/stock/simulate-anticipation', { token, body: { stock_item_ids: [first], requested_net_future_value: '5000.00' } });
  await api.call('POST', '/v1/stock/request-anticipation', write(token, { stock_item_ids: [first], requested_net_future_value: '5000.00', bank: {} }));
  await api.call('POST', `/v1/stock/${second}/cancel`, write(token, undefined));
  await api.call('POST', `/v1/stock/${unknownId}/cancel`, write(token, undefined));

  // Payables and credits.
  const payable = await api.call('POST', '/v1/assignor-payables', write(token, { assignor_id: prepared.assignorId, amount_brl: '300.00', due_date: day(20), reason: 'prism debt' }));
  const other = await api.call('POST', '/v1/assignor-payables', write(token, { assignor_id: prepared.assignorId, amount_brl: '50.00', due_date: day(20), reason: 'prism debt' }));
  await api.call('GET', `/v1/assignor-payables?assignor_id=${prepared.assignorId}`, { token });
  await api.call('GET', `/v1/assignor-payables/${payable.body?.id}`, { token });
  await api.call('POST', `/v1/assignor-payables/${payable.body?.id}/payments`, write(token, { source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '100.00' }));
  await api.call('POST', `/v1/assignor-payables/${payable.body?.id}/payments`, write(token, { source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '999999.00' }));
  await api.call('POST', `/v1/assignor-payables/${other.body?.id}/write-off`, write(token, { reason: 'prism write-off' }));
  await api.call('POST', '/v1/discount-credits', write(token, { assignor_id: prepared.assignorId, amount_brl: '10.00', reason: 'prism credit' }));
  await api.call('POST', '/v1/discount-credits', { ...write(token, { assignor_id: prepared.assignorId, amount_brl: '0', reason: 'prism credit' }), invalid: true });
  await api.call('GET', '/v1/discount-credits', { token });

  // Webhooks: a subscription (one with too many kinds refused), its deliveries, a retry, a secret rotation, recovery, re-enabling, deletion.
  const hook = await api.call('POST', '/v1/webhooks', write(token, { url: 'https://127.0.0.1:9/prism', events: ['operation.created', 'operation.cancelled'] }));
  const tooMany = Array.from({ length: 60 }, () => 'operation.created');
  await api.call('POST', '/v1/webhooks', { ...write(token, { url: 'https://127.0.0.1:9/prism', events: tooMany }), invalid: true });
  const hookId = hook.body?.id ?? unknownId;
  await api.call('POST', '/v1/operations/direct', write(token, { ...company('11444777000161'), receivables: [receivable('PRISM-OP-HOOK', { requested_net_future_value: '5000.00' })] }));
  await api.call('GET', '/v1/webhooks', { token });
  const deliveries = await api.call('GET', `/v1/webhooks/${hookId}/deliveries`, { token });
  await api.call('POST', `/v1/webhooks/${hookId}/deliveries/${deliveries.body?.items?.[0]?.id ?? unknownId}/retry`, write(token, undefined));
  await api.call('POST', `/v1/webhooks/${hookId}/rotate-secret`, write(token, { previous_secret_expires_in_seconds: 60 }));
  const recovery = await api.call('POST', `/v1/webhooks/${hookId}/recover`, write(token, { since: hook.body?.created_at ?? new Date().toISOString() }));
  await api.call('GET', `/v1/webhooks/${hookId}/recoveries/${recovery.body?.recovery_id ?? recovery.body?.id ?? unknownId}`, { token });
  await api.call('POST', `/v1/webhooks/${hookId}/enable`, write(token, {}));
  await api.call('DELETE', `/v1/webhooks/${hookId}`, write(token, undefined));
  await api.call('DELETE', `/v1/webhooks/${unknownId}`, write(token, undefined));

  // Sandbox test clocks (issue #26): created, listed, read, advanced (once not forward), advanced by staff, deleted.
  const later = (days) => new Date(Date.now() + days * 86_400_000).toISOString();
  const clock = await api.call('POST', '/v1/test-clocks', write(token, { name: 'prism clock' }));
  const clockId = clock.body?.id ?? unknownId;
  await api.call('GET', '/v1/test-clocks', { token });
  await api.call('GET', `/v1/test-clocks/${clockId}`, { token });
  await api.call('POST', `/v1/test-clocks/${clockId}/advance`, write(token, { frozen_time: later(-1) }));
  await api.call('POST', `/v1/test-clocks/${clockId}/advance`, write(token, { frozen_time: later(1) }));
  await api.call('POST', `/v1/backoffice/test-clocks/${clockId}/advance`, write(staff, { frozen_time: later(2) }));
  await api.call('DELETE', `/v1/test-clocks/${clockId}`, write(token, undefined));
  await api.call('GET', `/v1/test-clocks/${unknownId}`, { token });

  // Collection (issue #31): the sandbox pays a title's PIX charge as the payer's bank would, staff run the sweep,
  // and the PSP's routes refuse an unsigned call.
  await api.call('POST', `/v1/sandbox/titles/${prepared.titleId}/pix`, write(token, { webhook: 'once' }));
  await api.call('POST', '/v1/backoffice/collection/sweep', write(staff, undefined));
  await api.call('POST', '/v1/internal/pix-collection/pix', { body: { pix: [] }, invalid: true });
  await api.call('POST', '/v1/internal/pix-collection/sweep', { invalid: true });

  // The sandbox SEFAZ: a key's answers set (the integration manual's worked example), a malformed key, an outage ended at once.
  const nfeKey = '52060433009911002506550120000007800267301615';
  await api.call('POST', `/v1/sandbox/nfe/${nfeKey}`, write(token, { status: 'authorized', payer_event: 'confirmed' }));
  await api.call('POST', '/v1/sandbox/nfe/1234', write(token, { status: 'authorized' }, { invalid: true }));
  await api.call('POST', '/v1/sandbox/sefaz/outage', write(token, { seconds: 0 }));
  // The sandbox escriturador: a competitor acquires a key's duplicatas, a malformed key, an outage ended at once.
  await api.call('POST', '/v1/sandbox/registrar/transfers', write(token, { nfe_key: '52060433009911002506550120000007800267301615', holder_document: '11.222.333/0001-81' }));
  await api.call('POST', '/v1/sandbox/registrar/transfers', write(token, { nfe_key: '1234', holder_document: '11222333000181' }, { invalid: true }));
  await api.call('POST', '/v1/sandbox/registrar/outage', write(token, { seconds: 0 }));
  // The sandbox PSPs: a top-up on the payout account (the next reconciliation books it), and a kind no PSP line has.
  await api.call('POST', '/v1/sandbox/pix/statement-lines', write(token, { account: 'payout', kind: 'top_up', amount: '100.00' }));
  await api.call('POST', '/v1/sandbox/pix/statement-lines', write(token, { account: 'payout', kind: 'dividend', amount: '1.00' }, { invalid: true }));
  // The payer paying at the escriturador (no duplicata of this key left unpaid: 404), the caller's and staff's reconciliation, an unsigned webhook.
  await api.call('POST', '/v1/sandbox/registrar/settlements', write(token, { nfe_key: '52060433009911002506550120000007800267301615', installment: '999', amount: '10.00' }));
  await api.call('POST', '/v1/sandbox/registrar/reconcile', write(token, undefined));
  await api.call('POST', '/v1/backoffice/registrations/reconcile', write(staff, undefined));
  await api.call('POST', '/v1/internal/registrar/callback', { body: { evento: 'duplicata.settled', id: 'prism' }, invalid: true });

  // Events of the last 30 days.
  const events = await api.call('GET', '/v1/events?type=operation.created&limit=5', { token });
  await api.call('GET', `/v1/events/${events.body?.items?.[0]?.event_id ?? unknownId}`, { token });
  await api.call('GET', `/v1/events/${unknownId}`, { token });

  // The ledger: accounts (filtered, as of a moment), one account and its statement, transactions, one of them, the trial balance.
  const accounts = await api.call('GET', `/v1/ledger/accounts?kind=title_receivable&as_of=${encodeURIComponent(new Date().toISOString())}`, { token });
  const accountId = accounts.body?.items?.[0]?.id ?? unknownId;
  await api.call('GET', `/v1/ledger/accounts/${accountId}`, { token });
  await api.call('GET', `/v1/ledger/accounts/${accountId}/statement.csv?lang=pt-BR`, { token });
  await api.call('GET', '/v1/ledger/accounts?as_of=yesterday', { token, invalid: true });
  const ledgerTransactions = await api.call('GET', '/v1/ledger/transactions?limit=5', { token });
  await api.call('GET', `/v1/ledger/transactions/${ledgerTransactions.body?.items?.[0]?.id ?? unknownId}`, { token });
  await api.call('GET', '/v1/ledger/trial-balance', { token });

  // Provider callbacks: unsigned (401), and signed as the providers sign.
  const callback = { event: 'prism.unknown', id: randomUUID() };
  for (const [route, secret] of [['/v1/internal/esign/callback', env.ESIGN_CALLBACK_SECRET], ['/v1/internal/pix/callback', env.PIX_CALLBACK_SECRET]]) {
    await api.call('POST', route, { body: callback, invalid: true });
    await api.call('POST', route, { body: callback, headers: signed(secret, callback) });
  }
}
