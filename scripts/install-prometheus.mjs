#!/usr/bin/env node
// Installs Debian's prometheus package when missing: `promtool` for the alert and recording rules'
// unit tests (`npm run test:rules`), and the Prometheus server `npm run cluster` scrapes with. The
// distribution's build is the one the machines here can fetch; its version is printed. Needs root
// (CI and dev machines are). The cluster runs its own Prometheus, not the package's service.
import { existsSync } from 'node:fs';
import { aptInstall, debianVersion } from './lib/apt.mjs';

export const PROMTOOL_PATH = '/usr/bin/promtool';
export const PROMETHEUS_PATH = '/usr/bin/prometheus';

const log = (message) => process.stderr.write(`[install-prometheus] ${message}\n`);

export function ensurePrometheus() {
  if (!existsSync(PROMTOOL_PATH) || !existsSync(PROMETHEUS_PATH)) aptInstall(log, ['prometheus']);
  return { promtool: PROMTOOL_PATH, prometheus: PROMETHEUS_PATH };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensurePrometheus();
  log(`prometheus ${debianVersion('prometheus') ?? '(version unknown)'}`);
}
