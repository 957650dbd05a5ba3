import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { testDb } from '../support/stack';
import { buildCredential, tokenFor } from '../support/factories';
import { up as grantLedgerRead } from '../../db/migrations/20261128092822_ledger_read_scope';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { untilPaid } from '../support/lifecycle';
import { buildAssignor, buildPayable } from '../support/payables';

/** OPERATIONS_POLICY prices the default receivable, 10,000.00 due in 30 days, at 250.00 of discount: 9,750.00 liquid. */
describe('GET /v1/ledger: the originator\'s books over HTTP', () => {
  const stack = operationsStack();
  let operationId: string;
  let titleId: string;
  let payableId: string;
  let createdAt: string;
  const get = (path: string, token = stack.token) => stack.client.get(path, { token });

  before(async () => {
    const assignor = await buildAssignor(stack.client, stack.token);
    payableId = (await buildPayable(stack.client, stack.token, assignor.id, { amount_brl: '1000.00' })).id;
    createdAt = new Date().toISOString();
    const created = await createDirect(stack.client, stack.token, directBody({ cnpj: assignor.cnpj, email: assignor.email }));
    expect(created.status, created.text).to.equal(201);
    operationId = created.body.id;
    titleId = created.body.titles[0].id;
    await untilPaid(stack.client, stack.token, operationId);
  });

  it('lists an operation\'s accounts with their balances, filtered by operation, title, kind or payable', async () => {
    const res = await get(`/v1/ledger/accounts?operation_id=${operationId}`);
    expect(res.status, res.text).to.equal(200);
    const byKind = Object.fromEntries(res.body.items.map((a: { kind: string }) => [a.kind, a]));
    expect(res.body.total).to.equal(3);
    expect(byKind.title_receivable).to.include({ normal_balance: 'debit', title_id: titleId, operation_id: operationId, posted: '10000.00', pending: '0.00', available: '10000.00' });
    expect(byKind.unearned_discount).to.include({ normal_balance: 'credit', posted: '250.00' });
    expect(byKind.assignor_price_payable).to.include({ normal_balance: 'credit', posted: '0.00', title_id: null });
    expect((await get(`/v1/ledger/accounts?title_id=${titleId}`)).body.total).to.equal(2);
    const [cash] = (await get('/v1/ledger/accounts?kind=psp_cash')).body.items;
    expect(cash).to.include({ kind: 'psp_cash', psp: 'payout', posted: '-8750.00' });
    const [payable] = (await get(`/v1/ledger/accounts?payable_id=${payableId}`)).body.items;
    expect(payable).to.include({ kind: 'assignor_payable', posted: '0.00' });
    const one = await get(`/v1/ledger/accounts/${byKind.title_receivable.id}`);
    expect(one.status).to.equal(200);
    expect(one.body).to.deep.include({ id: byKind.title_receivable.id, posted: '10000.00' });
  });

  it('answers balances as of a moment: before the purchase the receivable held nothing', async () => {
    const [receivable] = (await get(`/v1/ledger/accounts?title_id=${titleId}&kind=title_receivable`)).body.items;
    const before = await get(`/v1/ledger/accounts/${receivable.id}?as_of=${encodeURIComponent(createdAt)}`);
    expect(before.body).to.include({ posted: '0.00', as_of: createdAt });
    const acquired = await testDb()('ledger_transactions').where({ title_id: titleId, kind: 'acquisition' }).first('effective_at');
    const at = await get(`/v1/ledger/accounts/${receivable.id}?as_of=${encodeURIComponent(acquired.effective_at.toISOString())}`);
    expect(at.body).to.include({ posted: '10000.00' });
  });

  it('lists the operation\'s transactions with their entries, and reads one', async () => {
    const res = await get(`/v1/ledger/transactions?operation_id=${operationId}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.items.map((t: { kind: string; status: string }) => `${t.kind} ${t.status}`)).to.deep.equal(['netting posted', 'acquisition posted', 'payout posted']);
    const acquisition = res.body.items[1];
    expect(acquisition.entries.map((e: { account_kind: string; direction: string; amount: string }) => `${e.direction} ${e.account_kind} ${e.amount}`))
      .to.deep.equal(['debit title_receivable 10000.00', 'credit unearned_discount 250.00', 'credit assignor_price_payable 9750.00']);
    const payout = res.body.items[2];
    expect(payout.resolved_at).to.be.a('string');
    const one = await get(`/v1/ledger/transactions/${acquisition.id}`);
    expect(one.body).to.deep.equal(acquisition);
    const onAccount = await get(`/v1/ledger/transactions?account_id=${acquisition.entries[0].account_id}`);
    expect(onAccount.body.items.map((t: { id: string }) => t.id)).to.deep.equal([acquisition.id]);
    const later = await get(`/v1/ledger/transactions?operation_id=${operationId}&effective_from=${encodeURIComponent(acquisition.effective_at)}`);
    expect(later.body.items.map((t: { kind: string }) => t.kind)).to.deep.equal(['acquisition', 'payout']);
    const earlier = await get(`/v1/ledger/transactions?operation_id=${operationId}&effective_to=${encodeURIComponent(acquisition.effective_at)}`);
    expect(earlier.body.items.map((t: { kind: string }) => t.kind)).to.deep.equal(['netting']);
  });

  it('gives an account\'s statement as CSV: opening balance, each posted entry with the balance it leaves, closing balance', async () => {
    const [price] = (await get(`/v1/ledger/accounts?operation_id=${operationId}&kind=assignor_price_payable`)).body.items;
    const res = await get(`/v1/ledger/accounts/${price.id}/statement.csv`);
    expect(res.status, res.text).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const rows = res.text.trimEnd().split('\r\n').map((line: string) => line.split(','));
    expect(rows[0]).to.deep.equal(['"line"', '"posted_at"', '"transaction_id"', '"kind"', '"direction"', '"amount"', '"balance"']);
    const unquoted = rows.map((row: string[]) => row.map((field) => field.slice(1, -1)));
    expect(unquoted.slice(1).map((row: string[]) => [row[0], row[3], row[4], row[5], row[6]])).to.deep.equal([
      ['opening_balance', '', '', '', '0.00'],
      ['entry', 'netting', 'debit', '1000.00', '-1000.00'],
      ['entry', 'acquisition', 'credit', '9750.00', '8750.00'],
      ['entry', 'payout', 'debit', '8750.00', '0.00'],
      ['closing_balance', '', '', '', '0.00'],
    ]);
  });

  it('gives the statement in Portuguese: column names, labels, decimal comma, `;` between fields, every field quoted; from a moment on', async () => {
    const [receivable] = (await get(`/v1/ledger/accounts?title_id=${titleId}&kind=title_receivable`)).body.items;
    const res = await get(`/v1/ledger/accounts/${receivable.id}/statement.csv?lang=pt-BR`);
    const lines = res.text.trimEnd().split('\r\n');
    expect(lines[0]).to.equal('"linha";"data_lancamento";"transacao_id";"tipo";"natureza";"valor";"saldo"');
    expect(lines[1]).to.equal('"saldo_inicial";"";"";"";"";"";"0,00"');
    expect(lines[2]).to.match(/^"lancamento";"[^"]+";"[0-9a-f-]{36}";"acquisition";"debito";"10000,00";"10000,00"$/);
    expect(lines[3]).to.match(/^"saldo_final";"[^"]+";"";"";"";"";"10000,00"$/);
    const after = await get(`/v1/ledger/accounts/${receivable.id}/statement.csv?lang=pt-BR&from=${encodeURIComponent(new Date().toISOString())}`);
    expect(after.text.trimEnd().split('\r\n').slice(1).map((line: string) => line.split(';')[0])).to.deep.equal(['"saldo_inicial"', '"saldo_final"']);
    expect(after.text).to.include('"10000,00"');
    expect((await get(`/v1/ledger/accounts/${randomUUID()}/statement.csv`)).status).to.equal(404);
  });

  it('balances the trial balance now and before', async () => {
    for (const query of ['', `?as_of=${encodeURIComponent(createdAt)}`]) {
      const res = await get(`/v1/ledger/trial-balance${query}`);
      expect(res.status, res.text).to.equal(200);
      expect(res.body.debits).to.equal(res.body.credits);
    }
    const now = await get('/v1/ledger/trial-balance');
    expect(now.body.lines.find((line: { kind: string }) => line.kind === 'title_receivable')).to.include({ debits: '10000.00', credits: '0.00' });
  });

  it('shows one originator nothing of another\'s books', async () => {
    const [account] = (await get(`/v1/ledger/accounts?operation_id=${operationId}`)).body.items;
    const [transaction] = (await get(`/v1/ledger/transactions?operation_id=${operationId}`)).body.items;
    const other = await buildOperationsIntegrator(stack.client);
    expect((await get(`/v1/ledger/accounts/${account.id}`, other.token)).body).to.deep.equal({ detail: 'ledger_account_not_found' });
    expect((await get(`/v1/ledger/transactions/${transaction.id}`, other.token)).status).to.equal(404);
    expect((await get(`/v1/ledger/accounts?operation_id=${operationId}`, other.token)).body).to.include({ total: 0 });
    expect((await get('/v1/ledger/trial-balance', other.token)).body).to.deep.include({ lines: [], debits: '0.00', credits: '0.00' });
  });

  it('needs ledger:read, and refuses a malformed moment with 422', async () => {
    const { credential } = await buildOperationsIntegrator(stack.client);
    const withoutLedger = await tokenFor(stack.client, credential, ['operation:read']);
    const refused = await get('/v1/ledger/accounts', withoutLedger);
    expect(refused.status).to.equal(403);
    expect(refused.body.detail.required).to.deep.equal(['ledger:read']);
    expect((await get(`/v1/ledger/accounts/${randomUUID()}?as_of=yesterday`)).status).to.equal(422);
    expect((await get(`/v1/ledger/accounts/${randomUUID()}`)).status).to.equal(404);
  });

  it('grants ledger:read by migration to credentials that read operations or payables, and to no other', async () => {
    const operations = await buildCredential({ scopes: ['operation:read'] });
    const payables = await buildCredential({ scopes: ['payable:read'] });
    const writer = await buildCredential({ scopes: ['simulation:create'] });
    await grantLedgerRead(testDb());
    await grantLedgerRead(testDb());
    const scopesOf = async (id: string) => (await testDb()('api_credentials').where({ id }).first()).scopes;
    expect(await scopesOf(operations.id)).to.deep.equal(['operation:read', 'ledger:read']);
    expect(await scopesOf(payables.id)).to.deep.equal(['payable:read', 'ledger:read']);
    expect(await scopesOf(writer.id)).to.deep.equal(['simulation:create']);
  });
});
