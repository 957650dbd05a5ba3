import { expect } from 'chai';
import winston from 'winston';
import { createDb } from '../../db/connection';

/** Keeps every entry the logger writes. */
class Kept extends winston.Transport {
  readonly entries: Record<string, unknown>[] = [];

  override log(info: Record<string, unknown>, next: () => void): void {
    this.entries.push(info);
    next();
  }
}

describe('the database client\'s own warnings', () => {
  it('reach the process\'s logger as structured entries, not the console', async () => {
    const kept = new Kept();
    const logger = winston.createLogger({ level: 'warn', transports: [kept] });
    // Nothing listens on port 1: every acquisition is refused at once.
    const db = createDb('postgres://nobody@127.0.0.1:1/none', 1, 500, logger);
    const printed: unknown[] = [];
    // knex prints its warnings with console.log when it has no logger of ours.
    const consoleLog = console.log;
    console.log = (...args: unknown[]) => { printed.push(args); };
    try {
      await db.raw('select 1').then(() => expect.fail('a query reached a database that is not there'), () => undefined);
    } finally {
      console.log = consoleLog;
      await db.destroy();
    }
    expect(printed).to.deep.equal([]);
    const warnings = kept.entries.filter((e) => e.message === 'database client');
    expect(warnings.length).to.be.at.least(1);
    expect(warnings[0]).to.include({ level: 'warn' });
    expect(String(warnings[0].detail)).to.match(/^Acquire connection error: .*ECONNREFUSED 127\.0\.0\.1:1/);
  });
});
