import { v5 as uuidv5 } from 'uuid';

/** Every event kind we record and deliver (DESIGN.md §5: the spec's eight, `operation.denied`, and `operation.flagged` of the double-assignment signal). */
export const EVENT_TYPES = [
  'operation.created',
  'operation.approved',
  'operation.approval_requested',
  'operation.denied',
  'operation.cancelled',
  'operation.contract_signed',
  'operation.paid',
  'title.paid',
  'stock.item_registered',
  'operation.flagged',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const NAMESPACE = '6f2b7f1e-3c0a-4d7e-9a51-2f1b8c3d4e5f';

/** DESIGN.md §4: UUIDv5 of the source (workflow id, or the resource id) + kind + sequence. */
export function eventId(source: string, type: EventType, sequence: number | string = 0): string {
  return uuidv5(`${source}|${type}|${sequence}`, NAMESPACE);
}

export interface EventRecord {
  eventId: string;
  originatorId: string;
  eventType: EventType;
  data: Record<string, unknown>;
  occurredAt: Date;
}
