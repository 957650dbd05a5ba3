import { expect } from 'chai';
import { createDb, Db } from '../../db/connection';
import { withDatabaseBudget } from '../../db/request-budget';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { statementRows } from '../../db/statement';
import { testConfig } from '../support/stack';
import { TcpProxy } from '../support/tcp-proxy';
import { idempotentExecutor } from '../../api/middleware/idempotency-executor';
import { createLogger } from '../../platform/logger';

const failureOf = (work: () => Promise<unknown>) => work().then(() => { throw new Error('expected a failure'); }, (err: unknown) => err);

describe('the database wait budget of a request', function () {
  this.timeout(20_000);
  let db: Db;
  before(() => { db = createDb(testConfig().databaseUrl, 2, 1_000); });
  after(() => db.destroy());

  const sleep = (seconds: number) => db.raw('select pg_sleep(?)', [seconds]);

  it('bounds the waits of one request together, each of which alone fits the per-wait bound', async () => {
    const started = Date.now();
    const err = await failureOf(() => withDatabaseBudget(1_000, async () => {
      await sleep(0.4);
      await sleep(0.4);
      await sleep(0.4);
    }));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
    expect(Date.now() - started).to.be.within(900, 1_400);
  });

  it('leaves waits outside a request to the per-wait bound alone', async () => {
    const started = Date.now();
    const answers = [await sleep(0.4), await sleep(0.4), await sleep(0.4)];
    // Together past the 1 s a request may spend (above), each within the pool's per-wait bound.
    expect(Date.now() - started).to.be.at.least(1_150);
    expect(answers.map(({ rows }) => rows.length)).to.deep.equal([1, 1, 1]);
  });

  it('closes the connection of a transaction it cuts, so the pool hands out no transaction left open', async () => {
    const err = await failureOf(() => withDatabaseBudget(500, () => db.transaction(async (trx) => {
      await trx.raw('create temporary table budget_probe (n int) on commit drop');
      // A wait beside the transaction (the pool's other connection) spends the whole budget, so the
      // transaction's next statement, and its ROLLBACK, are refused without reaching Postgres.
      await db.raw('select pg_sleep(0.7)').catch(() => undefined);
      await trx.raw('select 1');
    })));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
    // Both pooled connections serve plain statements again, outside any transaction.
    const states = await Promise.all([0, 1].map(() => db.raw('select pg_sleep(0.05), txid_current_if_assigned() as tx')));
    for (const { rows } of states) expect(rows[0].tx).to.equal(null);
  });

  it('bounds a hand-written statement (db/statement.ts) as it bounds knex\'s: same budget, and the pool serves again after', async () => {
    const started = Date.now();
    const err = await failureOf(() => withDatabaseBudget(1_000, async () => {
      for (let i = 0; i < 3; i += 1) await statementRows(db, { text: 'select pg_sleep($1)', values: [0.4] });
    }));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
    expect(Date.now() - started).to.be.within(900, 1_400);
    const rows = await statementRows<{ n: number }>(db, { name: 'budget_probe_named', text: 'select $1::int as n', values: [7] });
    expect(rows).to.deep.equal([{ n: 7 }]);
  });

  it('runs a hand-written statement given a transaction on that transaction\'s connection', async () => {
    await db.transaction(async (trx) => {
      const [{ tx }] = (await trx.raw('select txid_current()::text as tx')).rows;
      const [ours] = await statementRows<{ tx: string }>(trx, { text: 'select txid_current()::text as tx', values: [] });
      expect(ours.tx).to.equal(tx);
    });
  });

  it('lets a pool acquire wait no longer than what is left', async () => {
    const held = [sleep(1.5).catch(() => undefined), sleep(1.5).catch(() => undefined)];
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = Date.now();
    const err = await failureOf(() => withDatabaseBudget(300, async () => { await db.raw('select 1'); }));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
    expect(Date.now() - started).to.be.below(700);
    await Promise.all(held);
  });
});

describe('a keyed request whose transaction cannot begin or commit', function () {
  this.timeout(20_000);
  let proxy: TcpProxy;
  let db: Db;
  beforeEach(async () => {
    const database = new URL(testConfig().databaseUrl);
    proxy = await TcpProxy.start({ host: database.hostname, port: Number(database.port) });
    database.port = String(proxy.port);
    db = createDb(database.toString(), 1, 500);
    await db.raw('select 1');
  });
  afterEach(async () => {
    proxy.restore();
    await db.destroy();
    await proxy.close();
  });

  const executor = (key: string, beforeCommit: () => boolean) => idempotentExecutor(
    { db, settings: testConfig().idempotency, logger: createLogger('error', 'test'), now: () => new Date() },
    { scope: 'budget-test', key, route: 'POST /v1/probe', requestHash: 'h' }, beforeCommit);

  it('fails as the outage it is (503 database_unavailable), not as a transaction "already complete"', async () => {
    proxy.freeze();
    const err = await failureOf(() => executor(`begin-${Date.now()}-0000000000`, () => false)(async () => ({ status: 201, body: {} })));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
  });

  it('runs no after-commit task (no workflow start) when COMMIT never answered', async () => {
    let started = false;
    // Postgres stops answering right before COMMIT (the executor asks whether the client left just then).
    const err = await failureOf(() => executor(`commit-${Date.now()}-000000000`, () => { proxy.freeze(); return false; })(async (unit) => {
      unit.afterCommit(async () => { started = true; });
      return { status: 201, body: {} };
    }));
    expect(isDatabaseUnavailable(err), String(err)).to.equal(true);
    expect(started).to.equal(false);
  });
});
