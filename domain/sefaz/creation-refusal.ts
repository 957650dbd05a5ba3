import { RuleViolation } from '../errors';
import { consultConsequence } from './status-codes';
import { isDisowning, latestConclusive } from './payer-events';
import type { NfeStatusAnswer, PayerEventsAnswer } from './port';

/** One receivable's NF-e as the creation routes name it. */
export interface NfeToCheck {
  externalId: string;
  /** Path of the receivable in the body (or the stock item's place in the selection). */
  loc: (string | number)[];
  key: string;
}

/** NF-e (model 55) only: NFC-e (65), NFS-e and CT-e are not checked at SEFAZ's NF-e services. */
export const checkedAtSefaz = (key: string): boolean => key.slice(20, 22) === '55';

/**
 * What SEFAZ's answers at creation refuse: an NF-e that is not authorized (cancelled, denied,
 * unknown, or a key inconsistent with its NF-e) is `nfe_not_authorized`; a payer whose latest
 * conclusive manifestação disowns it, `nfe_disowned_by_payer`. No answer, or one that is no verdict
 * (an outage, 656, an unmapped code), refuses nothing: the operation's workflow asks again.
 */
export function creationRefusal(nfe: NfeToCheck, status: NfeStatusAnswer | null, payer: PayerEventsAnswer | null): RuleViolation | null {
  const where = { external_id: nfe.externalId, loc: [...nfe.loc, 'nfe_key'], nfe_key: nfe.key };
  if (status && consultConsequence(status.outcome) === 'refuse') {
    return new RuleViolation({
      code: 'nfe_not_authorized',
      message: `Receivable ${nfe.externalId}: NF-e ${nfe.key} is ${status.outcome} at SEFAZ (cStat ${status.cStat}: ${status.reason})`,
      ...where, nfe_status: status.outcome, cstat: status.cStat, xmotivo: status.reason,
    });
  }
  const word = payer ? latestConclusive(payer.events, status?.authorizedAt ?? null) : null;
  if (payer && isDisowning(word)) {
    return new RuleViolation({
      code: 'nfe_disowned_by_payer',
      message: `Receivable ${nfe.externalId}: the payer of NF-e ${nfe.key} registered ${word!.event} on ${word!.at} (cStat ${payer.cStat}: ${payer.reason})`,
      ...where, payer_event: word!.event, payer_event_at: word!.at, cstat: payer.cStat, xmotivo: payer.reason,
    });
  }
  return null;
}

/** Every code the creation check answers with, for the OpenAPI document. */
export const NFE_SEFAZ_CODES = ['nfe_not_authorized', 'nfe_disowned_by_payer'] as const;
