import { expect } from 'chai';
import { isDatabaseUnavailable } from '../../db/connection';

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
