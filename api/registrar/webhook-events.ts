import type { Knex } from 'knex';
import type { EscrituradorEvent } from '../../domain/escriturador/port';
import { AppError, errorCode } from '../../domain/errors';
import {
  appliedOutcome, settlementExternalId, settlementIsOurs, settlementPayment, TITLE_CLOSED_REFUSALS, type SettlementEvent,
} from '../../domain/escriturador/settlement';
import type { TitleStatus } from '../../domain/title-rules';
import { OperationsRepository } from '../../db/repositories/operations';
import { RegistrarEventsRepository } from '../../db/repositories/registrar-events';
import { TitlePaymentsRepository } from '../../db/repositories/title-payments';
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

/**
 * The payer paid the boleto dinâmico to the holder: our title is paid through its workflow
 * (domain/escriturador/settlement.ts says with what). The duplicata paid in full at the
 * escriturador, our registration is `settled`, whichever path paid our title.
 */
async function settle(ctx: RegistrarEventContext, event: SettlementEvent): Promise<{ titleId: string | null; outcome: RegistrarEventOutcome }> {
  const registrations = new TitleRegistrationsRepository(ctx.db);
  const ours = await registrations.ofDuplicata(event.duplicataId);
  if (!ours || !settlementIsOurs(ours.status)) return { titleId: ours?.titleId ?? null, outcome: 'not_ours' };
  const outcome = event.origin === 'holder' ? 'informed_by_us' : await applyToTitle(ctx, ours.originatorId, ours.titleId, event);
  if (event.settled) await registrations.settled(ours.titleId, ctx.now());
  return { titleId: ours.titleId, outcome };
}

async function applyToTitle(ctx: RegistrarEventContext, originatorId: string, titleId: string, event: SettlementEvent): Promise<RegistrarEventOutcome> {
  const earlier = await new TitlePaymentsRepository(ctx.db, originatorId).byExternalId(titleId, settlementExternalId(event.eventId));
  // Delivered again after our answer to an earlier delivery was lost: its payment stands as it was applied, whatever the balance is now.
  if (earlier) return appliedOutcome(event, earlier.amount);
  const title = (await new OperationsRepository(ctx.db, originatorId).titleById(titleId))!;
  const payment = settlementPayment(event, { status: title.status as TitleStatus, outstandingBalance: title.outstandingBalance });
  if (!payment) return closed(ctx, titleId, event);
  try {
    await recordPayerPayment(ctx, ctx.db, originatorId, titleId,
      { paid_amount_brl: payment.paidAmountBrl, external_id: payment.externalId, paid_at: payment.paidAt },
      { channel: payment.channel, recordedBy: payment.recordedBy });
  } catch (err) {
    if (err instanceof AppError && TITLE_CLOSED_REFUSALS.includes(errorCode(err))) return closed(ctx, titleId, event);
    throw err;
  }
  if (appliedOutcome(event, payment.paidAmountBrl) === 'applied') return 'applied';
  ctx.logger.warn('escriturador settlement above the title\'s balance: the rest is the payer\'s overpayment', { title_id: titleId, event_id: event.eventId, applied: payment.paidAmountBrl });
  return 'applied_in_part';
}

/** The payer paid a title closed meanwhile (paid by PIX, or gone back to the assignor): nothing applied, left to staff to return. */
function closed(ctx: RegistrarEventContext, titleId: string, event: SettlementEvent): RegistrarEventOutcome {
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
