import { InputErrors } from '../money-input';
import { OperationFees, readOperationFees, refuseOwnPricingUnderTarget } from './fees';
import { normaliseReceivables, PricingRoute, ReceivableInput } from './receivables';

export interface PricingRequest {
  receivables: ReceivableInput[];
  fees: OperationFees | null;
}

/** `fees` alone, for a caller that read the receivables on their own. */
export function normaliseFees(raw: unknown, { route }: { route: PricingRoute }, receivables: readonly ReceivableInput[]): OperationFees | null {
  const errors = new InputErrors();
  const fees = readOperationFees(raw, route, errors);
  errors.throwIfAny();
  refuseOwnPricingUnderTarget(fees, receivables);
  return fees;
}

/**
 * The priced part of `POST /v1/simulate` and `POST /v1/operations/direct` (`receivables[]` and
 * `fees`), read once for both routes: all schema failures of both in one 422, then the rules.
 */
export function normalisePricingRequest(body: { receivables?: unknown; fees?: unknown }, { route }: { route: PricingRoute }): PricingRequest {
  const errors = new InputErrors();
  const fees = readOperationFees(body.fees, route, errors);
  const receivables = normaliseReceivables(body.receivables, { route }, errors);
  refuseOwnPricingUnderTarget(fees, receivables);
  return { receivables, fees };
}
