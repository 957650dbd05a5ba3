import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from '@temporalio/worker';
import { HISTORIES_DIR, historyFromJson } from '../support/histories';

/**
 * Determinism guard: every lifecycle path recorded in test/workflows/histories (by
 * `npm run histories:record`) replays against the workflow code as it is now. A change that would
 * break workflows already running fails here; record the histories again only when nothing
 * running can be affected (docs/decisions.md).
 */
describe('recorded workflow histories', function () {
  this.timeout(180_000);

  const files = readdirSync(HISTORIES_DIR).filter((file) => file.endsWith('.json')).sort();

  it('cover every lifecycle path', () => {
    const paths = [
      'happy-path', 'approval', 'denial', 'cancel-waiting-approval', 'cancel-contract-sent', 'contract-error-redispatch-esign_create_failed',
      'contract-forgotten-redispatch', 'pix-refusal-retry', 'overdue', 'settlement',
      // A long wait for signatures, and title tracking resumed from PAID (each run its own history).
      'continue-as-new-signatures', 'continue-as-new-signatures.run2', 'settlement.run2',
    ];
    expect(files.map((file) => file.replace(/\.json$/, ''))).to.include.members(paths);
  });

  it('replay with the current workflow code', async () => {
    const histories = files.map((file) => ({
      workflowId: file, history: historyFromJson(readFileSync(join(HISTORIES_DIR, file), 'utf8')),
    }));
    const failures: string[] = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: require.resolve('../../workflows') }, histories)) {
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).to.deep.equal([]);
  });
});
