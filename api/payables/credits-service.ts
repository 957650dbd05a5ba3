import type { Knex } from 'knex';
import { RuleViolation } from '../../domain/errors';
import { DiscountCreditsRepository } from '../../db/repositories/credits';
import { PayablesLedger } from '../../db/repositories/payables-ledger';
import { openDebtOf } from '../operations/debt-netting';
import { createOnceIfIdentified, positiveAmount } from './inputs';
import { requireAssignor } from './payables-service';
import { presentDiscountCredit } from './presenter';

export interface DiscountCreditBody {
  assignor_id: string;
  amount_brl: unknown;
  reason: string;
  external_id?: string | null;
}

/**
 * A credit reduces what the assignor owes now: it settles its open payables oldest first, and
 * one larger than that debt is refused, so no balance lingers to change later payables unseen.
 * Deduplicated by (originator, external_id).
 */
export async function grantDiscountCredit(trx: Knex.Transaction, originatorId: string, body: DiscountCreditBody) {
  const amount = positiveAmount(body.amount_brl, 'amount_brl');
  const assignor = await requireAssignor(trx, originatorId, body.assignor_id);
  return createOnceIfIdentified(trx, { grain: 'discount_credit', scope: originatorId, externalId: body.external_id, request: { ...body } }, async (sp) => {
    const debt = await openDebtOf(sp, originatorId, assignor.id);
    if (amount.gt(debt)) {
      throw new RuleViolation({
        code: 'discount_credit_exceeds_open_debt', message: `The credit of ${amount} exceeds the assignor's open debt of ${debt}`,
        amount_brl: amount.toString(), open_debt_brl: debt.toString(),
      });
    }
    const credit = await new DiscountCreditsRepository(sp, originatorId).insert({ assignorId: assignor.id, amount, reason: body.reason, externalId: body.external_id ?? null });
    const lines = await new PayablesLedger(sp, originatorId).debitOldestFirst(assignor.id, amount, { source: 'DISCOUNT_CREDIT', discountCreditId: credit.id });
    return presentDiscountCredit(credit, lines);
  });
}
