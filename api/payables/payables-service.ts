import type { Knex } from 'knex';
import { Conflict, NotFound, RuleViolation, ValidationFailed } from '../../domain/errors';
import { Money } from '../../domain/money';
import { AssignorsRepository } from '../../db/repositories/assignors';
import { OperationsRepository } from '../../db/repositories/operations';
import { PayableRow, PayablesRepository } from '../../db/repositories/payables';
import { PayablesLedger, PaymentSource } from '../../db/repositories/payables-ledger';
import { PayableBooks } from '../../db/repositories/ledger-payable-books';
import { createOnceIfIdentified, positiveAmount } from './inputs';
import { presentPayablePayment } from './presenter';
import { repurchase, titleToRepurchase } from './repurchase';
import type { TitleRecord } from '../../db/repositories/tracked-titles';

export interface NewPayableBody {
  assignor_id: string;
  origin_title_id?: string | null;
  reason?: string | null;
  amount_brl: unknown;
  due_date: string;
}

export interface PayablePaymentBody {
  source: Extract<PaymentSource, 'ASSIGNOR_PIX_DIRECT' | 'ASSIGNOR_BANK_TRANSFER'>;
  paid_amount_brl: unknown;
  external_id?: string | null;
}

const alreadySettled = () => new Conflict('payable_already_settled');

/** The assignor a body names must be the caller's (422 when it is not: the route itself exists). */
export async function requireAssignor(db: Knex, originatorId: string, assignorId: string) {
  const assignor = await new AssignorsRepository(db, originatorId).byId(assignorId);
  if (!assignor) throw new RuleViolation({ code: 'assignor_not_found', message: `No assignor ${assignorId} for this originator`, assignor_id: assignorId });
  return assignor;
}

/**
 * A payable opened by hand: an origin title of the same assignor, or a reason, or both. Naming a
 * title its payer still owes (its operation PAID) repurchases it; otherwise it is a charge to the assignor.
 */
export async function createPayable(db: Knex, originatorId: string, body: NewPayableBody): Promise<PayableRow> {
  const amount = positiveAmount(body.amount_brl, 'amount_brl');
  if (!body.origin_title_id && !body.reason) throw ValidationFailed.field(['body', 'reason'], 'reason is required when origin_title_id is absent', 'missing');
  const assignor = await requireAssignor(db, originatorId, body.assignor_id);
  let repurchased: TitleRecord | null = null;
  if (body.origin_title_id) {
    const operations = new OperationsRepository(db, originatorId);
    const title = await operations.titleById(body.origin_title_id);
    if (!title || (await operations.byId(title.operationId))!.assignorId !== assignor.id) {
      throw new RuleViolation({ code: 'origin_title_not_found', message: `No title ${body.origin_title_id} of this assignor`, origin_title_id: body.origin_title_id });
    }
    repurchased = await titleToRepurchase(db, originatorId, title, amount);
  }
  const payable = await new PayablesRepository(db, originatorId).open({
    assignorId: assignor.id, origin: 'MANUAL', originTitleId: body.origin_title_id ?? null, reason: body.reason ?? null, amount, dueDate: body.due_date,
  });
  if (repurchased) await repurchase(db, repurchased, payable, payable.createdAt);
  else await new PayableBooks(db, originatorId).openedByHand(payable, payable.createdAt);
  return payable;
}

async function lockPayable(db: Knex, originatorId: string, id: string): Promise<PayableRow> {
  const payable = await new PayablesRepository(db, originatorId).byId(id, true);
  if (!payable) throw new NotFound('payable_not_found');
  return payable;
}

/**
 * `POST /v1/assignor-payables/{id}/payments`. The payable's row lock serialises its payments.
 * After a write-off the external_id no longer replays (contract: 409 `payable_already_settled`);
 * a retry of a payment of a payable paid in full still does.
 */
export async function payPayable(trx: Knex.Transaction, originatorId: string, id: string, body: PayablePaymentBody) {
  const amount = positiveAmount(body.paid_amount_brl, 'paid_amount_brl');
  const payable = await lockPayable(trx, originatorId, id);
  if (payable.status === 'WRITTEN_OFF') throw alreadySettled();
  return createOnceIfIdentified(trx, { grain: 'assignor_payable_payment', scope: payable.id, externalId: body.external_id, request: { ...body } }, async (sp) => {
    if (payable.status === 'PAID') throw alreadySettled();
    if (amount.gt(Money.of(payable.remaining))) {
      throw new RuleViolation({
        code: 'payment_exceeds_remaining', message: `The payment of ${amount} exceeds the payable's remaining ${payable.remaining}`,
        paid_amount_brl: amount.toString(), remaining: payable.remaining,
      });
    }
    const line = await new PayablesLedger(sp, originatorId).debit(payable, amount, { source: body.source, externalId: body.external_id ?? null });
    return presentPayablePayment(line);
  });
}

/** Forgives what is left; the debt stops counting for netting and for the title's exposure. */
export async function writeOffPayable(db: Knex, originatorId: string, id: string, reason: string): Promise<PayableRow> {
  const payable = await lockPayable(db, originatorId, id);
  if (payable.status === 'PAID' || payable.status === 'WRITTEN_OFF') throw alreadySettled();
  return new PayablesLedger(db, originatorId).writeOff(payable, reason);
}
