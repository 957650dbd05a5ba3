import { createServer, type AddressInfo } from 'node:net';
import { expect } from 'chai';
import pg from 'pg';
import { isDatabaseUnavailable } from '../../db/unavailable';
import { testConfig, testDb } from '../support/stack';

const failureOf = (work: () => Promise<unknown>) => work().then(() => { throw new Error('expected a failure'); }, (err: unknown) => err);

describe('isDatabaseUnavailable: which real Postgres failures are an outage (503), which are not', () => {
  it('an unreachable server and a terminated connection are', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    expect(isDatabaseUnavailable(await failureOf(() => new pg.Client({ host: '127.0.0.1', port }).connect()))).to.equal(true);
    // Its own connection, so the shared pool never holds the terminated one.
    const own = new pg.Client({ connectionString: testConfig().databaseUrl });
    await own.connect();
    own.on('error', () => undefined);
    expect(isDatabaseUnavailable(await failureOf(() => own.query('select pg_terminate_backend(pg_backend_pid())')))).to.equal(true);
    await own.end().catch(() => undefined);
  });

  it('a statement Postgres refuses (NUL in text, division by zero) is not', async () => {
    expect(isDatabaseUnavailable(await failureOf(() => testDb()('users').where({ email: 'a\u0000b' }).first()))).to.equal(false);
    expect(isDatabaseUnavailable(await failureOf(() => testDb().raw('select 1/0')))).to.equal(false);
  });
});

const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable: what the api answers 503 database_unavailable for', () => {
  it('counts Postgres down, restarting, out of connection slots or cut off, and our own timeouts', () => {
    for (const err of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P03', 'the database system is starting up'),
      pgError('53300', 'sorry, too many clients already'),
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      new Error('Query read timeout'),
      new Error('timeout expired'),
      new Error('Connection terminated unexpectedly'),
      Object.assign(new Error('Knex: Timeout acquiring a connection. The pool is probably full.'), { name: 'KnexTimeoutError' }),
    ]) expect(isDatabaseUnavailable(err), err.message).to.equal(true);
  });

  it('does not hide a query Postgres answered with an error, nor anything else', () => {
    for (const err of [
      pgError('42601', 'syntax error at or near "selec"'),
      pgError('23505', 'duplicate key value violates unique constraint'),
      pgError('40P01', 'deadlock detected'),
      new Error('idempotency record has no response'),
      'a string',
    ]) expect(isDatabaseUnavailable(err), String(err)).to.equal(false);
  });
});
