// The contract checks' tools, pinned and installed into .tools/ on first use (a second call reuses
// them): oasdiff from its Go module, schemathesis into its own venv from PyPI.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OASDIFF_VERSION = '1.36.0';
export const SCHEMATHESIS_VERSION = '4.32.5';
/** Run with `npm exec` (npm's own cache), not installed into the project. */
export const PRISM_VERSION = '5.16.0';

function log(message) {
  process.stderr.write(`[install-tools] ${message}\n`);
}

function works(binary) {
  return existsSync(binary) && spawnSync(binary, ['--version'], { encoding: 'utf8' }).status === 0;
}

export function ensureOasdiff() {
  const dir = path.join(ROOT, '.tools', `oasdiff-${OASDIFF_VERSION}`);
  const binary = path.join(dir, 'oasdiff');
  if (works(binary)) return binary;
  log(`building oasdiff v${OASDIFF_VERSION} with go install (about 40 s on 2 cores)...`);
  mkdirSync(dir, { recursive: true });
  execFileSync('go', ['install', `github.com/oasdiff/oasdiff@v${OASDIFF_VERSION}`], {
    stdio: 'inherit',
    env: { ...process.env, CGO_ENABLED: '0', GOBIN: dir },
  });
  if (!works(binary)) throw new Error(`oasdiff not usable at ${binary}`);
  return binary;
}

export function ensureSchemathesis() {
  const venv = path.join(ROOT, '.tools', `schemathesis-${SCHEMATHESIS_VERSION}`);
  const binary = path.join(venv, 'bin', 'schemathesis');
  if (works(binary)) return binary;
  log(`installing schemathesis==${SCHEMATHESIS_VERSION} into ${path.relative(ROOT, venv)} (about 20 s)...`);
  // A half-made venv from an interrupted run is rebuilt rather than patched.
  rmSync(venv, { recursive: true, force: true });
  execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${SCHEMATHESIS_VERSION}`], { stdio: 'inherit' });
  if (!works(binary)) throw new Error(`schemathesis not usable at ${binary}`);
  return binary;
}
