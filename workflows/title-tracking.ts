import { startChild, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import { titleActivities } from './title-activities';
import { titleWorkflow, titleWorkflowId } from './title';
import { DISPLAY_NUMBER, ENVIRONMENT, ORIGINATOR_ID } from './search-attributes';

/** The operation's keys an operator filters title workflows by ("every title of OP-…"). */
function inheritedSearchAttributes(): SearchAttributePair[] {
  const parent = workflowInfo().typedSearchAttributes;
  return [ORIGINATOR_ID, DISPLAY_NUMBER, ENVIRONMENT].flatMap((key) => {
    const value = parent.get(key);
    return value === undefined ? [] : [{ key, value }];
  });
}

/**
 * From PAID: one child workflow per title (`title-<id>`), and the operation waits until every one
 * of them has closed. Children are addressed by the api directly, so payments never pass here.
 */
export async function trackTitlesUntilClosed(operationId: string): Promise<void> {
  const titleIds = await titleActivities().titlesToTrack({ operationId });
  const typedSearchAttributes = inheritedSearchAttributes();
  const children = await Promise.all(titleIds.map((titleId) => startChild(titleWorkflow, {
    workflowId: titleWorkflowId(titleId), args: [{ titleId }], typedSearchAttributes,
  })));
  await Promise.all(children.map((child) => child.result()));
}
