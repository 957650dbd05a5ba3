import type { Knex } from 'knex';
import type { EscrituradorEvent } from '../../domain/escriturador/port';
import { AppError, errorCode } from '../../domain/errors';
import { Money } from '../../domain/money';
import { CLOSED_TITLE_STATUSES, TitleStatus } from '../../domain/title-rules';
import { OperationsRepository } from '../../db/repositories/operations';
import { RegistrarEventsRepository } from '../../db/repositories/registrar-events';
import { TitleRegistrationsRepository } from '../../db/repositories/title-registrations';
import type { Logger } from '../../platform/logger';
import type { TemporalHandle } from '../temporal/client';
import { recordPayerPayment } from '../titles/payer-payments';

/**
 * What an event did to our title: `applied` (the whole amount), `applied_in_part` (the balance was
 * less: the rest is the payer's overpayment), `title_closed` (paid by another path, or gone back to
 * the assignor: nothing applied), `informed_by_us` (a payment we told it of), `not_ours` (no act of
 * ours on the duplicata, or our act no longer in force), `recorded` (an act's news), `repeat`.
 */
export type RegistrarEventOutcome = 'applied' | 'applied_in_part' | 'title_closed' | 'informed_by_us' | 'not_ours' | 'recorded' | 'repeat' | 'ignored';

export interface RegistrarEventContext {
  db: Knex;
  temporal: TemporalHandle;
  logger: Logger;
  now: () => Date;
}

/** Refusals of the title's payment that mean it takes nothing more from this event. */
const TITLE_CLOSED = new Set(['title_already_paid', 'title_balance_locked', 'title_cancelled']);

const settlementExternalId = (eventId: string) => `registrar:${eventId}`;

type Settlement = Extract<EscrituradorEvent, { type: 'duplicata.settled' }>;

/**
 * The payer paid the boleto dinâmico to the holder: our title is paid through its workflow like any
 * payer payment (channel REGISTRAR, external_id derived from the event id, so a repeat or a
 * concurrent delivery applies it once), up to the title's balance. The duplicata paid in full at
 * the escriturador, our registration is `settled`, whichever path paid our title.
 */
async function settle(ctx: RegistrarEventContext, event: Settlement): Promise<{ titleId: string | null; outcome: RegistrarEventOutcome }> {
  const registrations = new TitleRegistrationsRepository(ctx.db);
  const ours = await registrations.ofDuplicata(event.duplicataId);
  if (!ours || !['registered', 'settled'].includes(ours.status)) return { titleId: ours?.titleId ?? null, outcome: 'not_ours' };
  const outcome = event.origin === 'holder' ? 'informed_by_us' : await applyToTitle(ctx, ours.originatorId, ours.titleId, event);
  if (event.settled) await registrations.settled(ours.titleId, ctx.now());
  return { titleId: ours.titleId, outcome };
}

async function applyToTitle(ctx: RegistrarEventContext, originatorId: string, titleId: string, event: Settlement): Promise<RegistrarEventOutcome> {
  const title = (await new OperationsRepository(ctx.db, originatorId).titleById(titleId))!;
  const balance = Money.of(title.outstandingBalance);
  if (CLOSED_TITLE_STATUSES.includes(title.status as TitleStatus) || balance.isZero()) return closed(ctx, titleId, event);
  const applied = Money.of(event.amount).min(balance);
  try {
    await recordPayerPayment(ctx, ctx.db, originatorId, titleId,
      { paid_amount_brl: applied.toString(), external_id: settlementExternalId(event.eventId), paid_at: event.paidAt },
      { channel: 'REGISTRAR', recordedBy: 'registrar:webhook' });
  } catch (err) {
    if (err instanceof AppError && TITLE_CLOSED.has(errorCode(err))) return closed(ctx, titleId, event);
    throw err;
  }
  if (applied.equals(Money.of(event.amount))) return 'applied';
  ctx.logger.warn('escriturador settlement above the title\'s balance: the rest is the payer\'s overpayment', { title_id: titleId, event_id: event.eventId, applied: applied.toString() });
  return 'applied_in_part';
}

/** The payer paid a title closed meanwhile (paid by PIX, or gone back to the assignor): nothing applied, left to staff to return. */
function closed(ctx: RegistrarEventContext, titleId: string, event: Settlement): RegistrarEventOutcome {
  ctx.logger.warn('escriturador settlement for a title that takes no more payments: nothing applied', { title_id: titleId, event_id: event.eventId });
  return 'title_closed';
}

/** Handles one escriturador event once, by its id; a repeat answers what the first did. */
export async function handleRegistrarEvent(ctx: RegistrarEventContext, event: EscrituradorEvent): Promise<RegistrarEventOutcome> {
  const events = new RegistrarEventsRepository(ctx.db);
  if (await events.outcomeOf(event.eventId) !== null) return 'repeat';
  const duplicataId = event.type === 'duplicata.settled' ? event.duplicataId : event.act.duplicataId;
  // An act's news changes nothing here: our acts are ours to ask for, and the daily reconciliation compares them.
  const { titleId, outcome } = event.type === 'duplicata.settled'
    ? await settle(ctx, event)
    : { titleId: (await new TitleRegistrationsRepository(ctx.db).ofDuplicata(duplicataId))?.titleId ?? null, outcome: 'recorded' as const };
  await events.handled({ eventId: event.eventId, type: event.type, duplicataId, titleId, outcome }, ctx.now());
  return outcome;
}
