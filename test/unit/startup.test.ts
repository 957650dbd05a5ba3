import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureTemporal } from '../../scripts/install-temporal.mjs';
import { freePort } from '../../scripts/lib/ports.mjs';
import { startEmbeddedPostgres } from '../../scripts/lib/postgres.mjs';
import { OutputTail, waitForChildPort } from '../../scripts/lib/startup.mjs';
import { startTemporalDev } from '../../scripts/lib/temporal.mjs';
import { rejectionOf } from '../support/rejection';

/** Holds a port the way another program would, so a child that needs it fails. */
async function occupy(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as net.AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Issue #24: a start-up that fails says why, in the child's own words, and a slow one is waited for. */
describe('start-ups of Postgres and Temporal', function () {
  this.timeout(120_000);

  it('the Temporal dev server failing at start-up is reported at once with its own last output', async () => {
    const taken = await occupy();
    try {
      const started = Date.now();
      const err = await rejectionOf(startTemporalDev({ binary: ensureTemporal(), port: await freePort(), uiPort: taken.port }));
      expect(err.message).to.match(/^Temporal dev server exited \(1\) during start-up; its last output:\n/);
      expect(err.message).to.include(`can't set UI port ${taken.port}`).and.include('address already in use');
      expect(Date.now() - started).to.be.below(60_000);
    } finally {
      await taken.close();
    }
  });

  it('embedded Postgres failing at start-up is reported with its own last output', async () => {
    const taken = await occupy();
    const dir = mkdtempSync(path.join(tmpdir(), 'pg-startup-'));
    chmodSync(dir, 0o755); // as root, Postgres runs as the postgres user, which must enter it
    try {
      const err = await rejectionOf(startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), port: taken.port, fast: true }));
      expect(err.message).to.match(new RegExp(`^embedded Postgres on port ${taken.port} failed to start; its last output:\\n`));
      expect(err.message).to.match(/could not (bind|create listen socket)/);
    } finally {
      await taken.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a child that never opens its port is killed at the bound, and its output is told', async () => {
    const child = spawn(process.execPath, ['-e', "console.log('loading plugins'); console.error('waiting for a lock'); setInterval(() => {}, 1000)"], { stdio: ['ignore', 'pipe', 'pipe'] });
    const port = await freePort();
    const err = await rejectionOf(waitForChildPort({ child, port, timeoutMs: 1_500, what: 'slow child', tail: new OutputTail().follow(child) }));
    expect(err.message).to.equal(`slow child did not open port ${port} within 1500 ms; its last output:\nloading plugins\nwaiting for a lock`);
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve)));
    expect(child.signalCode).to.equal('SIGKILL');
  });
});
