import { Money } from '../money';

export interface PayerAmount {
  /** Normalised (digits only), so one payer written two ways is still one payer. */
  payerDocument: string;
  /** The payer recorte measures `requested_net_future_value` in both routes (rule 5). */
  requestedBrl: Money;
}

/**
 * Per-payer totals of an operation's receivables. Several receivables may share a payer and
 * its exposure accumulates by document. The map keeps first-appearance order, which is the
 * payload order `checkCreditLimits` reports in.
 */
export function requestedByPayer(receivables: readonly PayerAmount[]): Map<string, Money> {
  const totals = new Map<string, Money>();
  for (const { payerDocument, requestedBrl } of receivables) {
    totals.set(payerDocument, (totals.get(payerDocument) ?? Money.ZERO).plus(requestedBrl));
  }
  return totals;
}
