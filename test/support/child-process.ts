import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

export interface Child {
  process: ChildProcess;
  /** The first match of `ready` in the child's output (e.g. the api's URL). */
  match: RegExpExecArray;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Runs one of our entry points (api/server.ts, worker/main.ts, or their compiled `dist/...js`) as
 * a real separate process, so a test can kill it abruptly the way a crash would.
 */
export async function startChild(entry: string, env: Record<string, string>, ready: RegExp, timeoutMs = 60_000): Promise<Child> {
  // Node itself with tsx's loader, not the tsx CLI: the CLI runs the entry in a second process,
  // which a SIGKILL of the CLI would leave running, so a "crashed" worker would go on working.
  const args = entry.endsWith('.js') ? [entry] : ['--import', 'tsx', entry];
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} not ready within ${timeoutMs} ms:\n${output.slice(-2000)}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${entry} exited (${code}) before ready:\n${output.slice(-2000)}`)); });
  });
  return {
    process: child,
    match,
    kill: (signal = 'SIGKILL') => new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill(signal);
    }),
  };
}
