import type { Knex } from 'knex';
import { eventId, EventType } from '../../domain/events';
import { recordEvent } from './events';
import type { PayableRow } from './payables';

/**
 * The title and payable events, recorded by the repository write that makes the move,
 * in its transaction. A kind that can happen more than once to one object names the occurrence
 * (a payment line, say) so each gets its own deterministic id, and a retried write none.
 */
export interface TitleFacts {
  id: string;
  originatorId: string;
  operationId: string;
  externalId: string;
}

async function displayNumberOf(db: Knex, operationId: string): Promise<string> {
  return (await db('operations').where({ id: operationId }).first('display_number')).display_number;
}

export async function recordTitleEvent(db: Knex, title: TitleFacts, type: EventType, facts: Record<string, unknown>, occurrence: string | number = 0, occurredAt = new Date()): Promise<void> {
  await recordEvent(db, {
    eventId: eventId(`title-${title.id}`, type, occurrence), originatorId: title.originatorId, eventType: type, occurredAt,
    data: {
      title_id: title.id, operation_id: title.operationId, display_number: await displayNumberOf(db, title.operationId), originator_id: title.originatorId,
      external_id: title.externalId, ...facts,
    },
  });
}

export async function recordPayableEvent(db: Knex, payable: PayableRow, type: EventType, occurrence: string | number = 0): Promise<void> {
  await recordEvent(db, {
    eventId: eventId(payable.id, type, occurrence), originatorId: payable.originatorId, eventType: type, occurredAt: payable.updatedAt,
    data: {
      payable_id: payable.id, originator_id: payable.originatorId, assignor_id: payable.assignorId, origin: payable.origin,
      origin_title_id: payable.originTitleId, amount_brl: payable.amount, paid_amount_brl: payable.paidAmount, remaining: payable.remaining,
      written_off_amount_brl: payable.writtenOffAmount, status: payable.status, due_date: payable.dueDate,
    },
  });
}
