#!/usr/bin/env node
// Installs Debian's headless-capable Chromium for the browser tests (test/browser/), when missing.
// Browser builds cannot be downloaded from anywhere but the distribution here, so playwright-core
// drives this system binary instead of a browser of its own. Needs root (CI and dev machines are).
import { existsSync } from 'node:fs';
import { aptInstall, debianVersion } from './lib/apt.mjs';

export const CHROMIUM_PATH = '/usr/bin/chromium';

const log = (message) => process.stderr.write(`[install-chromium] ${message}\n`);

if (existsSync(CHROMIUM_PATH)) {
  log(`present: ${CHROMIUM_PATH}`);
} else {
  aptInstall(log, ['chromium']);
}
log(`chromium ${debianVersion('chromium') ?? '(version unknown)'}`);
