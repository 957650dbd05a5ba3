import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { anotherApi, prepareDatabase, sharedApi, testConfig, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildCredential, tokenFor } from '../support/factories';

const ROOT = path.resolve(__dirname, '..', '..');
const kidOf = (token: string) => jwt.decode(token, { complete: true })!.header.kid!;

/** `npm run keys:rotate`, run as operators run it: a separate process with the deployment's configuration. */
function rotate(...args: string[]): { active: string; verify_only: string[]; retired: string[] } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'api/auth/keys-cli.ts', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, SERVICE_ENV: 'dev', DATABASE_URL: testConfig().databaseUrl },
  });
  if (run.status !== 0) throw new Error(`keys:rotate failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function eventually(check: () => Promise<void>, ms = 3_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() - started > ms) throw err;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/**
 * Issue #30 item 4: signing keys sealed at rest in every environment, states active / verify-only /
 * retired, rotation with overlap, and a retired key refused at once by every api process.
 */
describe('token signing keys', function () {
  this.timeout(90_000);
  let first: ApiClient;
  let second: ApiClient;
  before(async () => {
    await prepareDatabase();
    first = new ApiClient((await sharedApi()).url);
    second = new ApiClient((await anotherApi()).url);
  });

  const me = (api: ApiClient, token: string) => api.get('/v1/auth/me', { token });

  it('keeps every private key sealed with the payload key ring, never in clear', async () => {
    const rows = await testDb()('signing_keys').select('*');
    expect(rows.length).to.be.greaterThan(0);
    for (const row of rows) {
      expect(row.private_sealed, row.kid).to.match(/^enc:v1:/);
      expect(JSON.stringify(row)).to.not.include('PRIVATE KEY');
    }
  });

  it('rotates with overlap: new tokens are signed by the new key on every process, old ones verify until they expire', async () => {
    const credential = await buildCredential();
    const before = await tokenFor(first, credential);
    const rotation = rotate();
    expect(rotation.verify_only).to.include(kidOf(before));
    const row = await testDb()('signing_keys').where({ kid: kidOf(before) }).first('state', 'verify_until');
    expect(row.state).to.equal('verify-only');
    expect(row.verify_until.getTime() - Date.now()).to.be.closeTo((testConfig().jwt.tokenTtlSeconds + 60) * 1000, 10_000);
    for (const api of [first, second]) {
      await eventually(async () => { expect(kidOf(await tokenFor(api, credential))).to.equal(rotation.active); });
      expect((await me(api, before)).status).to.equal(200);
      const kids = (await api.get('/v1/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(kids).to.include.members([rotation.active, kidOf(before)]);
    }
  });

  it('refuses a retired key\'s tokens at once on every process, even tokens it verified a moment ago', async () => {
    const credential = await buildCredential();
    const leaked = await tokenFor(first, credential);
    for (const api of [first, second]) expect((await me(api, leaked)).status).to.equal(200);
    const rotation = rotate('--retire-previous');
    expect(rotation.retired).to.include(kidOf(leaked));
    for (const api of [first, second]) {
      await eventually(async () => {
        const res = await me(api, leaked);
        expect(res.status).to.equal(401);
        expect(res.body.detail).to.equal('invalid_token');
      }, 2_000);
      const kids = (await api.get('/v1/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
      expect(kids).to.not.include(kidOf(leaked));
      expect((await me(api, await tokenFor(api, credential))).status).to.equal(200);
    }
  });
});
