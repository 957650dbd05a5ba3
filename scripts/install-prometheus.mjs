#!/usr/bin/env node
// Installs Debian's prometheus package when missing: `promtool` for the alert and recording rules'
// unit tests (`npm run test:rules`), and the Prometheus server `npm run cluster` scrapes with. The
// distribution's build is the one the machines here can fetch; its version is printed. Needs root
// (CI and dev machines are). The package's own service is not wanted: the cluster runs its own.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PROMTOOL_PATH = '/usr/bin/promtool';
export const PROMETHEUS_PATH = '/usr/bin/prometheus';

function log(message) {
  process.stderr.write(`[install-prometheus] ${message}\n`);
}

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

export function ensurePrometheus() {
  if (!existsSync(PROMTOOL_PATH) || !existsSync(PROMETHEUS_PATH)) {
    if (process.getuid?.() !== 0) {
      log('Prometheus is missing and this is not root: run `sudo apt-get update && sudo apt-get install -y --no-install-recommends prometheus`');
      process.exit(1);
    }
    log('installing Debian\'s prometheus package (apt-get)...');
    run('apt-get', ['update']);
    run('apt-get', ['install', '-y', '--no-install-recommends', 'prometheus']);
  }
  return { promtool: PROMTOOL_PATH, prometheus: PROMETHEUS_PATH };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensurePrometheus();
  const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'prometheus'], { encoding: 'utf8' }).stdout;
  log(`prometheus ${version || '(version unknown)'}`);
}
