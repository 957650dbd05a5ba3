// Debian packages the project's scripts install when missing (as root: CI and dev machines are).
import { spawnSync } from 'node:child_process';

function run(command, args) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** `apt-get update` then install `packages` without recommends; says how to do it by hand when not root. */
export function aptInstall(log, packages) {
  if (process.getuid?.() !== 0) {
    log(`${packages.join(', ')} missing and this is not root: run \`sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}\``);
    process.exit(1);
  }
  log(`installing Debian's ${packages.join(', ')} (apt-get)...`);
  run('apt-get', ['update']);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...packages]);
}

/** The installed version of a Debian package, or null. */
export function debianVersion(name) {
  return spawnSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8' }).stdout || null;
}
