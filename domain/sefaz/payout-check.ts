import { consultConsequence, ConsultOutcome } from './status-codes';
import { isDisowning, latestConclusive, PayerEvent } from './payer-events';
import type { NfeStatusAnswer, PayerEventsAnswer } from './port';
import type { PayerConfirmationPolicy } from './payer-confirmation';

/** A receivable's NF-e check as stored and read: `pending` is an answer that is no verdict yet. */
export type NfeCheckStatus = 'passed' | 'refused' | 'pending';

/**
 * Why an operation is cancelled when an NF-e fails its check before the PIX. On a `pending` check,
 * `payer_confirmation_missing` says the NF-e passed but its payer has not confirmed it yet.
 */
export const NFE_CANCELLATION_REASONS = ['nfe_cancelled', 'nfe_denied', 'nfe_unknown', 'nfe_forged', 'nfe_too_old_to_check', 'nfe_disowned_by_payer', 'payer_confirmation_missing'] as const;
export type NfeCancellationReason = (typeof NFE_CANCELLATION_REASONS)[number];

const REFUSING: Partial<Record<ConsultOutcome, NfeCancellationReason>> = {
  cancelled: 'nfe_cancelled',
  denied: 'nfe_denied',
  unknown: 'nfe_unknown',
  forged: 'nfe_forged',
};

/** What the product decides for one receivable's check before the PIX. */
export interface PayoutPolicy {
  payerConfirmation: PayerConfirmationPolicy;
  /** A 526 (beyond the consult's age) passes: the product accepts it with the XML proof this receivable carried (domain/sefaz/consult-age.ts). */
  beyondConsultAgeAccepted: boolean;
}

const DEFAULT_POLICY: PayoutPolicy = { payerConfirmation: 'none', beyondConsultAgeAccepted: false };

/** One key's check: what SEFAZ said and what follows for the PIX. */
export interface NfeCheckOutcome {
  key: string;
  status: NfeCheckStatus;
  /** Set when `status` is `refused`, and on a `pending` check awaiting the payer's confirmation. */
  reason: NfeCancellationReason | null;
  /** The answer that decided: the consult's, or the distribution's when the payer disowned it or it is the one that gave no verdict. */
  cStat: string;
  xMotivo: string;
  payerEvent: PayerEvent | null;
  payerEventAt: string | null;
  /** `not_available` when SEFAZ would not show the payer's events to the certificate we hold (no delegated certificate of the issuer). */
  payerEvents: PayerEventsRead;
}

export type PayerEventsRead = 'read' | 'not_available';

/**
 * The check before the PIX: a consult that refuses refuses, and so does one beyond the consult's
 * age (526) unless the product accepts it with this receivable's XML proof; then the payer's latest conclusive
 * manifestação disowning it refuses; a consult or a distribution that gave no verdict (an outage, a
 * 656, a misrouted or unmapped code, events that could not be read) is `pending`, asked again; so is
 * an NF-e that passed while `payerConfirmation` is `required` and the payer's word is not a confirmation.
 * Events SEFAZ will not show us (no delegated certificate of the issuer) are no word from the payer:
 * the consult alone passes it, unless the product requires the payer's confirmation.
 */
export function payoutCheck(status: NfeStatusAnswer, payer: PayerEventsAnswer, policy: PayoutPolicy = DEFAULT_POLICY): NfeCheckOutcome {
  const { payerConfirmation } = policy;
  const word = latestConclusive(payer.events, status.authorizedAt);
  const notAvailable = payer.outcome === 'not_available';
  const base = { key: status.key, cStat: status.cStat, xMotivo: status.reason, payerEvent: word?.event ?? null, payerEventAt: word?.at ?? null, payerEvents: notAvailable ? 'not_available' : 'read' } as const;
  const refusal = REFUSING[status.outcome];
  if (refusal) return { ...base, status: 'refused', reason: refusal };
  // 526 is the one outcome whose consequence is the product's policy.
  const consequence = consultConsequence(status.outcome);
  if (consequence === 'policy' && !policy.beyondConsultAgeAccepted) return { ...base, status: 'refused', reason: 'nfe_too_old_to_check' };
  if (consequence !== 'pass' && consequence !== 'policy') return { ...base, status: 'pending', reason: null };
  if (payer.outcome !== 'found' && payer.outcome !== 'none' && !notAvailable) return { ...base, cStat: payer.cStat, xMotivo: payer.reason, status: 'pending', reason: null };
  if (isDisowning(word)) return { ...base, cStat: payer.cStat, xMotivo: payer.reason, status: 'refused', reason: 'nfe_disowned_by_payer' };
  if (payerConfirmation === 'required' && word?.event !== 'confirmed') {
    return { ...base, cStat: payer.cStat, xMotivo: payer.reason, status: 'pending', reason: 'payer_confirmation_missing' };
  }
  return { ...base, status: 'passed', reason: null };
}
