import type { Request } from 'express';
import type { EventType } from '../../domain/events';
import { RuleViolation } from '../../domain/errors';
import type { EventCursor, EventFilter } from '../../db/repositories/event-log';

type Query = Record<string, string | string[] | undefined> & { created?: { gte?: string; lt?: string } };

const list = (value: string | string[] | undefined): string[] => (value === undefined ? [] : [value].flat());

/** `type` repeated, as a comma list, or both (the document's pattern already checked each kind). */
const typesOf = (query: Query): EventType[] => [...new Set(list(query.type).flatMap((v) => v.split(',')))] as EventType[];

const dateOf = (value: string | undefined): Date | null => (value === undefined ? null : new Date(value));

/** The filters of `GET /v1/events`, already shaped by the document. */
export function eventFilterOf(req: Request, keptSince: Date): EventFilter {
  const query = req.query as Query;
  const success = query.delivery_success;
  return {
    types: typesOf(query),
    createdGte: dateOf(query.created?.gte),
    createdLt: dateOf(query.created?.lt),
    objectId: typeof query.object_id === 'string' ? query.object_id : null,
    operationId: typeof query.operation_id === 'string' ? query.operation_id : null,
    deliverySuccess: success === undefined ? null : String(success) === 'true',
    keptSince,
  };
}

/** One of `starting_after` / `ending_before`, never both. */
export function eventCursorOf(req: Request): EventCursor | null {
  const { starting_after: after, ending_before: before } = req.query as Record<string, string | undefined>;
  if (after && before) throw new RuleViolation({ code: 'event_cursors_exclusive', message: 'Send starting_after or ending_before, not both' });
  if (after) return { after };
  return before ? { before } : null;
}

export const eventLimitOf = (req: Request): number => Number(req.query.limit ?? 50);
