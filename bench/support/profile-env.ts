import path from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * The environment that makes a bench's api process write its V8 CPU profile into `dir`
 * (bench/support/cpu-profile.mjs; bench/lifecycle/profile-summary.ts reads it), or nothing when
 * `dir` is empty.
 */
export function apiProfileEnv(dir: string): Record<string, string> {
  return dir
    ? { NODE_OPTIONS: `--import ${pathToFileURL(path.join(__dirname, 'cpu-profile.mjs')).href}`, BENCH_PROFILE_DIR: path.resolve(dir) }
    : {};
}
