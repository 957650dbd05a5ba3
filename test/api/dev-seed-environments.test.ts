import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { prepareDatabase, testConfig } from '../support/stack';

const ROOT = path.resolve(__dirname, '..', '..');

/** Issue #30 item 5: the seed's staff password and client secrets are public, so only dev gets them. */
describe('the dev seed', function () {
  this.timeout(60_000);
  before(prepareDatabase);

  const seed = (serviceEnv: string) => spawnSync(process.execPath, ['--import', 'tsx', 'db/cli.ts', 'seed'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, SERVICE_ENV: serviceEnv, DATABASE_URL: testConfig().databaseUrl },
  });

  it('is refused in sandbox, and runs in dev', () => {
    const sandbox = seed('sandbox');
    expect(sandbox.status, sandbox.stderr).to.equal(1);
    expect(sandbox.stderr).to.match(/the dev seed \(known passwords\) runs only when SERVICE_ENV=dev/);
    const dev = seed('dev');
    expect(dev.status, dev.stderr).to.equal(0);
  });
});
