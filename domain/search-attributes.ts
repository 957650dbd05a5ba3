import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Registered on the dev server by scripts/lib/search-attributes.json; the names must match. */
export const ORIGINATOR_ID = defineSearchAttributeKey('OriginatorId', SearchAttributeType.KEYWORD);
export const LIFECYCLE_STATUS = defineSearchAttributeKey('LifecycleStatus', SearchAttributeType.KEYWORD);
export const DISPLAY_NUMBER = defineSearchAttributeKey('DisplayNumber', SearchAttributeType.KEYWORD);
export const ENVIRONMENT = defineSearchAttributeKey('Environment', SearchAttributeType.KEYWORD);
/** From PAID: how many of the operation's titles are still open (waiting for payment). */
export const OPEN_TITLES = defineSearchAttributeKey('OpenTitles', SearchAttributeType.INT);
/** From PAID: the earliest moment an open title turns OVERDUE; absent once none is open. */
export const NEXT_TITLE_DEADLINE = defineSearchAttributeKey('NextTitleDeadline', SearchAttributeType.DATETIME);
