import { appendFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * In a parallel run (scripts/lib/mocha.mjs sets TEST_DURATIONS_FILE), the wall time of this worker's
 * file, hooks included, for the next run to start the longest files first. One short line appended
 * per file: the two workers' lines do not interleave.
 */
export function recordFileDuration(file: string | undefined, ms: number): void {
  const record = process.env.TEST_DURATIONS_FILE;
  if (!record || !file) return;
  appendFileSync(record, `${JSON.stringify({ file: path.relative(ROOT, file), ms: Math.round(ms) })}\n`);
}
