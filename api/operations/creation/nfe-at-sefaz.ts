import { checkedAtSefaz, creationRefusal, NfeToCheck } from '../../../domain/sefaz/creation-refusal';
import type { DistributionParty, SefazPort } from '../../../domain/sefaz/port';
import type { RuleViolation } from '../../../domain/errors';
import { SefazError } from '../../../providers/provider-errors';
import { askWithinBudget } from './within-budget';

/** What creation asks SEFAZ with: the adapter (one attempt per request) and how long the whole check may take. */
export interface CreationSefaz {
  port: SefazPort;
  budgetMs: number;
}

/** Keys asked at once: a request of hundreds of receivables must not open hundreds of connections to SEFAZ. */
const AT_ONCE = 8;

/** SEFAZ unreachable within the budget is no verdict: the operation is created and its workflow asks again. */
async function unlessUnavailable<T>(ask: Promise<T>): Promise<T | null> {
  try {
    return await ask;
  } catch (err) {
    if (err instanceof SefazError) return null;
    throw err;
  }
}

/**
 * Creation's check at SEFAZ, before anything is written: each NF-e's status and its payer's
 * manifestações, a few keys at a time, none started once the budget is spent (those are checked by
 * the workflow). The first receivable SEFAZ refuses, in the request's order, refuses the request (422).
 */
export async function refuseUnbackedNfes(sefaz: CreationSefaz, nfes: readonly NfeToCheck[], issuer: DistributionParty): Promise<void> {
  const checked = nfes.filter((nfe) => checkedAtSefaz(nfe.key));
  const refusals = await askWithinBudget(checked, sefaz.budgetMs, AT_ONCE, async (nfe): Promise<RuleViolation | null> => {
    const [status, payer] = await Promise.all([unlessUnavailable(sefaz.port.consultStatus(nfe.key)), unlessUnavailable(sefaz.port.payerEvents(nfe.key, issuer))]);
    return creationRefusal(nfe, status, payer);
  });
  const refusal = refusals.find((found) => found !== null);
  if (refusal) throw refusal;
}
