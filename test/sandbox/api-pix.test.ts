import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import schema from '../../sandbox/api-pix/api-pix-2.9.0-subset.schema.json';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { SANDBOX_COLLECTION_CLIENT } from '../../platform/config/config';
import { CallbackReceiver } from './support';

const ajv = addFormats(new Ajv2020({ allErrors: true, strict: false }));
ajv.addSchema(schema);

/** Fails with the schema's own complaint, so a drifting field is named. */
function expectValid(definition: string, body: unknown): void {
  const validate = ajv.getSchema(`${schema.$id}#/$defs/${definition}`)!;
  expect(validate(body), `${definition}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body)}`).to.equal(true);
}

const txid = () => randomUUID().replace(/-/g, '');
const WEBHOOK_SECRET = 'collection-webhook-secret-for-tests';

/** Every body the sandbox collection PSP sends, checked against the project's schema of API Pix 2.9.0. */
describe('sandbox collection PSP speaks API Pix 2.9.0', () => {
  let sandbox: RunningSandbox;
  let receiver: CallbackReceiver;
  let token: string;

  const call = async (method: string, path: string, body?: unknown, bearer: string | null = token) => {
    const response = await fetch(`${sandbox.apiPixUrl}${path}`, {
      method, headers: { ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}), 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, type: response.headers.get('content-type') ?? '', body: await response.json() as any };
  };
  const cobv = (overrides: Record<string, unknown> = {}) => ({
    calendario: { dataDeVencimento: '2030-01-15', validadeAposVencimento: 3 },
    devedor: { cnpj: '12345678000195', nome: 'Pagador Ltda' },
    valor: { original: '1500.00', modalidadeAlteracao: 1, multa: { modalidade: '2', valorPerc: '2.00' }, juros: { modalidade: '3', valorPerc: '1.00' } },
    chave: 'cobranca@example.com',
    ...overrides,
  });

  before(async () => {
    sandbox = await startSandbox({
      port: 0, logLevel: 'error', callbackRetryDelayMs: 50,
      callbackSecrets: { esign: 'esign-secret-for-tests-only', pix: 'pix-secret-for-tests-only' },
      collection: { ...SANDBOX_COLLECTION_CLIENT, webhookSecret: WEBHOOK_SECRET },
    });
    receiver = await CallbackReceiver.start();
    const basic = Buffer.from(`${SANDBOX_COLLECTION_CLIENT.clientId}:${SANDBOX_COLLECTION_CLIENT.clientSecret}`).toString('base64');
    const res = await fetch(sandbox.apiPixUrl.replace(/\/v2$/, '/oauth/token'), {
      method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials',
    });
    const body = await res.json() as any;
    expectValid('TokenOAuth2', body);
    token = body.access_token;
  });

  after(async () => {
    await receiver.close();
    await sandbox.close();
  });

  it('creates, reads and revises a cobv: each answer a CobVCompleta', async () => {
    const id = txid();
    expectValid('CobVSolicitada', cobv());
    const created = await call('PUT', `/cobv/${id}`, cobv());
    expect(created.status).to.equal(201);
    expectValid('CobVCompleta', created.body);
    expect(created.body).to.include({ txid: id, status: 'ATIVA', revisao: 0 });
    expectValid('CobVCompleta', (await call('GET', `/cobv/${id}`)).body);
    const revised = await call('PATCH', `/cobv/${id}`, { valor: { original: '900.00' } });
    expectValid('CobVCompleta', revised.body);
    expect(revised.body.valor.original).to.equal('900.00');
    expect(revised.body.revisao).to.equal(1);
    const removed = await call('PATCH', `/cobv/${id}`, { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expectValid('CobVRevisada', { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
    expect(removed.body.status).to.equal('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  it('notifies each PIX received by webhook; lists and reads it; refunds it by devolucao once per id', async () => {
    const chave = `cobranca+${randomUUID()}@example.com`;
    const configured = await call('PUT', `/webhook/${encodeURIComponent(chave)}`, { webhookUrl: `${receiver.url}/hooks` });
    expectValid('WebhookCompleto', configured.body);
    const id = txid();
    await call('PUT', `/cobv/${id}`, cobv({ chave }));
    const started = new Date(Date.now() - 1_000);
    const paid = await call('POST', `/sandbox/cobv/${id}/pagamentos`, { valor: '1600.00' });
    expectValid('Pix', paid.body);
    const notice = await receiver.next<{ pix: { endToEndId: string }[] }>((body) => body.pix?.[0]?.endToEndId === paid.body.endToEndId);
    expectValid('NotificacaoPix', notice);

    const listed = await call('GET', `/pix?inicio=${started.toISOString()}&fim=${new Date(Date.now() + 1_000).toISOString()}`);
    expectValid('ListaPix', listed.body);
    expect(listed.body.pix.map((p: { endToEndId: string }) => p.endToEndId)).to.include(paid.body.endToEndId);
    expectValid('Pix', (await call('GET', `/pix/${paid.body.endToEndId}`)).body);

    expectValid('DevolucaoSolicitada', { valor: '100.00' });
    const refund = await call('PUT', `/pix/${paid.body.endToEndId}/devolucao/R1`, { valor: '100.00' });
    expect(refund.status).to.equal(201);
    expectValid('Devolucao', refund.body);
    const again = await call('PUT', `/pix/${paid.body.endToEndId}/devolucao/R1`, { valor: '100.00' });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(refund.body);
    expect((await call('GET', `/pix/${paid.body.endToEndId}`)).body.devolucoes).to.have.length(1);
    expect((await call('GET', `/cobv/${id}`)).body.status).to.equal('CONCLUIDA');
  });

  it('adds fine and interest to a PIX paid after the due date, apart in componentesValor', async () => {
    const id = txid();
    await call('PUT', `/cobv/${id}`, cobv({ calendario: { dataDeVencimento: '2020-01-01', validadeAposVencimento: 9999 } }));
    const paid = await call('POST', `/sandbox/cobv/${id}/pagamentos`, {});
    expectValid('Pix', paid.body);
    const { original, multa, juros } = paid.body.componentesValor;
    expect(original.valor).to.equal('1500.00');
    expect(multa.valor).to.equal('30.00');
    expect(Number(juros.valor)).to.be.greaterThan(0);
  });

  it('judges lateness and expiry at the paying moment given (a test clock\'s), and lists the PIX when it was recorded', async () => {
    const due = cobv({ calendario: { dataDeVencimento: '2030-01-15', validadeAposVencimento: 3 } });
    const [onTime, dayLate, expired] = [txid(), txid(), txid()];
    for (const id of [onTime, dayLate, expired]) await call('PUT', `/cobv/${id}`, due);
    const early = await call('POST', `/sandbox/cobv/${onTime}/pagamentos`, { horario: '2030-01-15T20:00:00.000Z' });
    expectValid('Pix', early.body);
    expect(early.body).to.include({ valor: '1500.00', horario: '2030-01-15T20:00:00.000Z' });
    const recordedFrom = new Date(Date.now() - 1_000);
    const late = await call('POST', `/sandbox/cobv/${dayLate}/pagamentos`, { horario: '2030-01-16T15:00:00.000Z' });
    expect(late.body).to.include({ valor: '1530.50' });
    expect(late.body.componentesValor).to.deep.equal({ original: { valor: '1500.00' }, multa: { valor: '30.00' }, juros: { valor: '0.50' } });
    const listed = await call('GET', `/pix?inicio=${recordedFrom.toISOString()}&fim=${new Date(Date.now() + 1_000).toISOString()}`);
    expect(listed.body.pix.map((p: { endToEndId: string }) => p.endToEndId)).to.include(late.body.endToEndId);
    // Paid on the fourth day after the due date: the three days of validity are over.
    const refused = await call('POST', `/sandbox/cobv/${expired}/pagamentos`, { horario: '2030-01-19T15:00:00.000Z' });
    expect(refused.status).to.equal(400);
    expectValid('ProblemaDetalhado', refused.body);
    expect(refused.body.title).to.equal('Cobrança expirada');
    expect((await call('GET', `/cobv/${expired}`)).body.status).to.equal('ATIVA');
  });

  it('refuses with problem+json: an unknown charge, a repeated txid, a malformed body, a missing token', async () => {
    const id = txid();
    const unknown = await call('GET', `/cobv/${id}`);
    expect(unknown.status).to.equal(404);
    expect(unknown.type).to.match(/^application\/problem\+json/);
    expectValid('ProblemaDetalhado', unknown.body);
    await call('PUT', `/cobv/${id}`, cobv());
    const repeated = await call('PUT', `/cobv/${id}`, cobv());
    expect(repeated.status).to.equal(409);
    expectValid('ProblemaDetalhado', repeated.body);
    const malformed = await call('PUT', `/cobv/${txid()}`, cobv({ valor: { original: '12,50' } }));
    expect(malformed.status).to.equal(400);
    expectValid('ProblemaDetalhado', malformed.body);
    expect(malformed.body.violacoes[0].propriedade).to.equal('valor.original');
    const anonymous = await call('GET', `/cobv/${id}`, undefined, null);
    expect(anonymous.status).to.equal(401);
    expectValid('ProblemaDetalhado', anonymous.body);
  });

  it('gives the account\'s statement: each PIX received in, each refund out, paged, with the balance at its end; only with a token', async () => {
    const chave = `cobranca+${randomUUID()}@example.com`;
    const id = txid();
    await call('PUT', `/cobv/${id}`, cobv({ chave }));
    const inicio = new Date();
    const paid = await call('POST', `/sandbox/cobv/${id}/pagamentos`, { valor: '1600.00', webhook: 'lost' });
    await call('PUT', `/pix/${paid.body.endToEndId}/devolucao/R9`, { valor: '100.00' });
    const fim = new Date(Date.now() + 1);
    const range = `inicio=${inicio.toISOString()}&fim=${fim.toISOString()}`;
    const before = await call('GET', `/sandbox/extrato?inicio=${new Date(0).toISOString()}&fim=${inicio.toISOString()}`);
    const statement = await call('GET', `/sandbox/extrato?${range}`);
    expect(statement.status).to.equal(200);
    expect(statement.body.lancamentos.map((l: Record<string, string>) => [l.tipo, l.natureza, l.endToEndId, l.valor])).to.deep.equal([
      ['CREDITO', 'PIX_RECEBIDO', paid.body.endToEndId, '1600.00'], ['DEBITO', 'DEVOLUCAO', paid.body.endToEndId, '100.00'],
    ]);
    expect(Number(statement.body.saldoFinal) - Number(before.body.saldoFinal)).to.equal(1500);
    const paged = await call('GET', `/sandbox/extrato?${range}&paginacao.paginaAtual=1&paginacao.itensPorPagina=1`);
    expect(paged.body.parametros.paginacao).to.include({ paginaAtual: 1, itensPorPagina: 1, quantidadeDePaginas: 2, quantidadeTotalDeItens: 2 });
    expect(paged.body.lancamentos.map((l: Record<string, string>) => l.tipo)).to.deep.equal(['DEBITO']);
    expect((await call('GET', `/sandbox/extrato?${range}`, undefined, null)).status).to.equal(401);
  });
});
