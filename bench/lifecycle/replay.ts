/**
 * Replays recorded workflow histories (protobuf, as the end-to-end bench's BENCH_HISTORY_DIR
 * writes them) against the current workflow code, to check that a change keeps the workflows
 * already running deterministic.
 *
 *   npx tsx bench/lifecycle/replay.ts dir/operation-….bin [dir/title-….bin …]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';

async function main(): Promise<void> {
  const histories = process.argv.slice(2).map((file) => ({
    workflowId: path.basename(file, '.bin'), history: temporal.api.history.v1.History.decode(readFileSync(file)),
  }));
  let failed = 0;
  for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows') }, histories)) {
    process.stdout.write(`${result.workflowId}: ${result.error ? `FAILED ${result.error.message}` : 'replayed'}\n`);
    if (result.error) failed += 1;
  }
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
