import { v5 as uuidv5 } from 'uuid';

/**
 * Every event kind we record and deliver: DESIGN.md §5's (the spec's eight, `operation.denied`,
 * `operation.flagged` of the double-assignment signal), then the title, payable and operation
 * moves, the operational `webhook_endpoint.disabled`, the sandbox's `test_clock.ready`,
 * `pix_charge.expired` of collection by PIX, `audit.checkpoint` (a signed head of the audit chain), `ledger.reconciliation_mismatch` (a
 * PSP statement and the books disagree) and `title.disputed` (the daily re-check after payout found the title's NF-e cancelled or
 * disowned by its payer), `registration.reconciliation_mismatch` (the daily comparison of our acts with the escriturador's found one differing).
 */
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
  'operation.settled',
  'operation.disbursement_failed',
  'operation.contract_error',
  'title.partially_paid',
  'title.overdue',
  'title.cancelled',
  'payable.opened',
  'payable.paid',
  'payable.written_off',
  'webhook_endpoint.disabled',
  'test_clock.ready',
  'pix_charge.expired',
  'audit.checkpoint',
  'ledger.reconciliation_mismatch',
  'title.disputed',
  'title.registered',
  'title.registration_refused',
  'registration.reconciliation_mismatch',
] as const;

/**
 * The most entries a request's list of event kinds may hold (a subscription's `events`, the events
 * list's `type` filter): more than there are kinds, and fixed, so that a new kind never moves a bound
 * integrators were given (it was the number of kinds, 20, when first published).
 */
export const EVENT_KIND_LIST_MAX_ITEMS = 50;

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

/** A recorded event: where it stands among its object's events. */
export interface StoredEvent extends EventRecord {
  objectId: string;
  sequence: number;
}

/** The `data` field naming the object an event is about: its `sequence` counts that object's events. */
const OBJECT_KEY: Record<string, string> = {
  operation: 'operation_id',
  title: 'title_id',
  payable: 'payable_id',
  stock: 'stock_item_id',
  webhook_endpoint: 'webhook_id',
  test_clock: 'test_clock_id',
  // A title's charge is part of the title: its events are ordered among the title's.
  pix_charge: 'title_id',
  audit: 'checkpoint_id',
  // One event per mismatch a reconciliation found in the originator's books.
  ledger: 'mismatch_id',
  // An act of ours differing at the escriturador is about its title: ordered among the title's events.
  registration: 'title_id',
};

export function objectKeyOf(type: EventType): string {
  return OBJECT_KEY[type.slice(0, type.indexOf('.'))];
}

/** The id of the object `event` is about, which its `data` always carries. */
export function objectIdOf(event: Pick<EventRecord, 'eventType' | 'data'>): string {
  const key = objectKeyOf(event.eventType);
  const id = event.data[key];
  if (typeof id !== 'string') throw new Error(`${event.eventType} event without ${key}`);
  return id;
}

/** The envelope a subscriber receives and `GET /v1/events` lists: the contract's four fields, then the ordering ones. */
export function eventEnvelope(event: StoredEvent) {
  return {
    event_type: event.eventType,
    event_id: event.eventId,
    occurred_at: new Date(event.occurredAt).toISOString(),
    object_id: event.objectId,
    sequence: event.sequence,
    data: event.data,
  };
}
