import type { Knex } from 'knex';
import { Conflict } from '../../../domain/errors';
import type { Escriturador, Duplicata } from '../../../domain/escriturador/port';
import { duplicataOfTitle, encumbered, RECEIVABLE_ENCUMBERED, unregistrableIssuer } from '../../../domain/escriturador/registration';
import { checkedAtSefaz, NfeToCheck } from '../../../domain/sefaz/creation-refusal';
import { RegistrationSettingsRepository } from '../../../db/repositories/registration-settings';
import { RegistrarError } from '../../../providers/provider-errors';
import { askWithinBudget } from './within-budget';

/** What creation asks the escriturador with: the adapter (one attempt per request) and how long the whole lookup may take. */
export interface CreationRegistrar {
  port: Escriturador;
  budgetMs: number;
}

/** An NF-e of the request with the due date that picks its duplicata. */
export type NfeToLookUp = NfeToCheck & { dueDate: string };

/** Keys asked at once, as at SEFAZ: hundreds of receivables must not open hundreds of connections. */
const AT_ONCE = 8;

/** The escriturador unreachable within the budget is no verdict: the operation is created and its workflow registers later. */
async function unlessUnavailable(ask: Promise<Duplicata[]>): Promise<Duplicata[] | null> {
  try {
    return await ask;
  } catch (err) {
    if (err instanceof RegistrarError) return null;
    throw err;
  }
}

/**
 * Creation's lookup at the escriturador, for an originator that registers its acquisitions and
 * before anything is written. An NF-e issued under a CPF is refused first, asking no one (422
 * `nfe_issuer_not_registrable`): registering it could only wait for ever. Then each NF-e's
 * duplicata (the one the title will acquire), a few keys at a time, none started once the budget
 * is spent. The first one the assignor no longer holds, in the request's order, refuses the
 * request (409 `receivable_encumbered`).
 */
export async function refuseEncumbered(trx: Knex, registrar: CreationRegistrar, originatorId: string, nfes: readonly NfeToLookUp[], assignorDocument: string): Promise<void> {
  const asked = nfes.filter((nfe) => checkedAtSefaz(nfe.key));
  if (asked.length === 0 || !(await new RegistrationSettingsRepository(trx).ofOriginator(originatorId))) return;
  const individual = unregistrableIssuer(asked, assignorDocument);
  if (individual) throw individual;
  const found = await askWithinBudget(asked, registrar.budgetMs, AT_ONCE, async (nfe) => {
    const duplicatas = await unlessUnavailable(registrar.port.lookup(nfe.key));
    return duplicatas && duplicataOfTitle(duplicatas, nfe.dueDate);
  });
  const first = asked.findIndex((_, i) => found[i] !== null && encumbered(found[i]!, assignorDocument));
  if (first < 0) return;
  const nfe = asked[first];
  const duplicata = found[first]!;
  throw new Conflict({
    code: RECEIVABLE_ENCUMBERED,
    message: `Receivable ${nfe.externalId}: duplicata ${duplicata.installment} of NF-e ${nfe.key} is no longer held by the assignor at its escriturador`,
    external_id: nfe.externalId, loc: [...nfe.loc, 'nfe_key'], nfe_key: nfe.key, duplicata_id: duplicata.duplicataId, installment: duplicata.installment,
  });
}
