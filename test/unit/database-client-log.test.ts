import { expect } from 'chai';
import { Writable } from 'node:stream';
import winston from 'winston';
import { createDb } from '../../db/connection';

/** A logger that keeps every entry it writes. */
function keepingLogger() {
  const entries: Record<string, unknown>[] = [];
  const stream = new Writable({ objectMode: true, write(info: Record<string, unknown>, _encoding, done) { entries.push(info); done(); } });
  return { entries, logger: winston.createLogger({ level: 'warn', transports: [new winston.transports.Stream({ stream })] }) };
}

describe('the database client\'s own warnings', () => {
  it('reach the process\'s logger as structured entries, not the console', async () => {
    const kept = keepingLogger();
    // Nothing listens on port 1: every acquisition is refused at once.
    const db = createDb('postgres://nobody@127.0.0.1:1/none', 1, 500, kept.logger);
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
