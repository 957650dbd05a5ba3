#!/usr/bin/env node
// Installs Debian's headless-capable Chromium for the browser tests (test/browser/), when missing.
// Browser builds cannot be downloaded from anywhere but the distribution here, so playwright-core
// drives this system binary instead of a browser of its own. Needs root (CI and dev machines are).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

function log(message) {
  process.stderr.write(`[install-chromium] ${message}\n`);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

if (existsSync(CHROMIUM_PATH)) {
  log(`present: ${CHROMIUM_PATH}`);
} else {
  if (process.getuid?.() !== 0) {
    log('Chromium is missing and this is not root: run `sudo apt-get update && sudo apt-get install -y chromium`');
    process.exit(1);
  }
  log('installing Debian\'s chromium package (apt-get)...');
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium']);
}
const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'chromium'], { encoding: 'utf8' }).stdout;
log(`chromium ${version || '(version unknown)'}`);
