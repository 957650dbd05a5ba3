import { WorkflowInterceptors, workflowInfo } from '@temporalio/workflow';

/**
 * The history length from which a model run's server "suggests" continue-as-new. The test server
 * never suggests it; a real one does at thousands of events, which no model run reaches. This
 * stands in for a server configured with a very low `limit.historyCount.suggestContinueAsNew`, so
 * the runs cross continue-as-new in every phase that has it.
 */
export const SUGGEST_CONTINUE_AS_NEW_AT = 40;

/**
 * The operation's workflow only, not its test clock's (issue #26): once a clock run that had
 * continued as new ended, the Java test server skipped no more time for any later run of its lane
 * (docs/decisions.md).
 */
const SUGGESTED_TO = new Set(['operationWorkflow']);

/** Bundled into the model runs' workflows only (test/model/harness.ts); the history length is replay-safe. */
export const interceptors = (): WorkflowInterceptors => ({
  internals: [{
    activate(input, next) {
      const info = workflowInfo() as { continueAsNewSuggested: boolean; historyLength: number; workflowType: string };
      info.continueAsNewSuggested = SUGGESTED_TO.has(info.workflowType) && info.historyLength >= SUGGEST_CONTINUE_AS_NEW_AT;
      return next(input);
    },
  }],
});
