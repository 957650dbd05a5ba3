// Start-ups of the children the scripts depend on (Postgres, the Temporal dev server, the Temporal
// server, Temporal Web): bounds that hold on a busy 2-core machine, and on failure the child's own
// last words, which say why (a port taken, a bad config, a schema it could not read).
import { portOpen } from './ports.mjs';

/**
 * How long each may take before the run gives up. A fresh-clone CI run, with the rest of the
 * machine busy, once saw the dev server miss a 60 s bound; each ends sooner when its child dies.
 */
export const STARTUP_BOUNDS_MS = { postgres: 180_000, temporalDev: 180_000, temporalServer: 300_000, temporalWeb: 120_000, observability: 120_000 };

/** The end of what a child printed (stdout and stderr together). */
export class OutputTail {
  constructor(maxChars = 4_000) {
    this.maxChars = maxChars;
    this.text = '';
  }

  push(chunk) {
    this.text = (this.text + String(chunk)).slice(-this.maxChars);
  }

  /** Follows a child's two streams. */
  follow(child) {
    child.stdout?.on('data', (chunk) => this.push(chunk));
    child.stderr?.on('data', (chunk) => this.push(chunk));
    return this;
  }

  describe() {
    const text = this.text.trimEnd();
    return text ? `its last output:\n${text}` : 'it printed nothing';
  }
}

export class StartupFailed extends Error {}

/**
 * Resolves when `child` listens on `port`. Rejects as soon as it exits, or after `timeoutMs` (and
 * kills it then), with its last output.
 */
export async function waitForChildPort({ child, port, timeoutMs, what, tail }) {
  const deadline = Date.now() + timeoutMs;
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  while (Date.now() < deadline) {
    if (exited()) break;
    if (await portOpen(port)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  // Its last output may still be in the pipe when the exit is seen.
  await new Promise((r) => setTimeout(r, 100));
  if (exited()) throw new StartupFailed(`${what} exited (${child.exitCode ?? child.signalCode}) during start-up; ${tail.describe()}`);
  child.kill('SIGKILL');
  throw new StartupFailed(`${what} did not open port ${port} within ${timeoutMs} ms; ${tail.describe()}`);
}

/** `promise` (a start-up that waits on its own), bounded, its failure told with the child's last output. */
export async function bounded(promise, { timeoutMs, what, tail, onTimeout = () => {} }) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new StartupFailed(`${what} was not ready within ${timeoutMs} ms; ${tail.describe()}`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch (err) {
    if (err instanceof StartupFailed) throw err;
    throw new StartupFailed(`${what} failed to start${err?.message ? ` (${err.message})` : ''}; ${tail.describe()}`);
  } finally {
    clearTimeout(timer);
  }
}
