import { addDays } from '../../domain/pricing';
import { cnpj } from '../../test/support/documents';

const PAYERS = Array.from({ length: 50 }, () => cnpj());

/** A realistic simulation body: 50 payers, due dates over a quarter, every fourth receivable with its own rates. */
export function pricingBody(size: number, today: string) {
  return {
    receivables: Array.from({ length: size }, (_, i) => ({
      external_id: `NF-${i}`, payer_name: `Payer ${i % PAYERS.length}`, payer_document: PAYERS[i % PAYERS.length], due_date: addDays(today, 5 + (i % 90)),
      net_future_value: `${1000 + i}.37`, requested_net_future_value: i % 3 === 0 ? `${900 + i}.10` : `${1000 + i}.37`,
      ...(i % 4 === 0 ? { monthly_rate_pct: '1.95', discount_pct: 0.5, fixed_discount_brl: '2.50' } : {}),
    })),
  };
}
