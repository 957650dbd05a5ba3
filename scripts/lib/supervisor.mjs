import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/**
 * One long-running child (api cluster, worker, sandbox) as a service manager runs it: output to a
 * log file, started again when it dies unless we are stopping it. `kill()` is how a fault run
 * crashes it; the restart that follows is the recovery under test.
 */
export class Supervised {
  constructor(name, command, args, { cwd, env, logFile, ready, restartDelayMs = 1_000, onLine = () => {} }) {
    Object.assign(this, { name, command, args, cwd, env, ready, restartDelayMs, onLine });
    this.log = createWriteStream(logFile, { flags: 'a' });
    this.restarts = 0;
    this.stopping = false;
    this.paused = false;
  }

  /** Starts the child and resolves when its output matches `ready`. */
  start(timeoutMs = 120_000) {
    const child = spawn(this.command, this.args, { cwd: this.cwd, env: this.env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    let output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${this.name} not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
      let readyYet = false;
      const onData = (chunk) => {
        this.log.write(chunk);
        const text = chunk.toString();
        for (const line of text.split('\n')) if (line) this.onLine(line);
        if (readyYet) return;
        output += text;
        if (this.ready.test(output)) {
          readyYet = true;
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (!readyYet) reject(new Error(`${this.name} exited (${code ?? signal}) before ready:\n${output.slice(-2000)}`));
        if (this.stopping || this.paused) return;
        this.restarts += 1;
        setTimeout(() => { if (!this.stopping && !this.paused) this.start().catch(() => undefined); }, this.restartDelayMs);
      });
    });
  }

  get pid() {
    return this.child?.pid;
  }

  /** Kills the child (SIGKILL by default); it is started again after the restart delay. */
  kill(signal = 'SIGKILL') {
    this.child?.kill(signal);
  }

  /** Stops it and keeps it stopped until `resume()`. */
  async pause() {
    this.paused = true;
    await this.exit('SIGTERM');
  }

  async resume() {
    this.paused = false;
    await this.start();
  }

  async stop() {
    this.stopping = true;
    await this.exit('SIGTERM');
  }

  exit(signal) {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
}
