import { startChild, workflowInfo } from '@temporalio/workflow';
import type { SearchAttributePair } from '@temporalio/common';
import { localTitleTracking, titleActivities } from './title-activities';
import { titleWorkflow, titleWorkflowId, TitleWorkflowInput } from './title';
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
 * `handOver` (runs started since the read-model writes became local activities): every title is
 * read at once by a local activity and each child starts from its title, with no activity of its
 * own; otherwise (older histories replaying) the ids are read and each child reads its title.
 */
export async function trackTitlesUntilClosed(operationId: string, handOver: boolean): Promise<void> {
  const inputs: TitleWorkflowInput[] = handOver
    ? (await localTitleTracking()({ operationId })).map((tracking) => ({ titleId: tracking.titleId, tracking }))
    : (await titleActivities().titlesToTrack({ operationId })).map((titleId) => ({ titleId }));
  const typedSearchAttributes = inheritedSearchAttributes();
  const children = await Promise.all(inputs.map((input) => startChild(titleWorkflow, {
    workflowId: titleWorkflowId(input.titleId), args: [input], typedSearchAttributes,
  })));
  await Promise.all(children.map((child) => child.result()));
}
