/**
 * What an `NFeConsultaProtocolo4` answer's `cStat` means for funding, as a practitioner maps them
 * (MOC 7.0 layout 4.00). The cancellation event itself is registered with 135/155; the consult
 * reports the NF-e's own status, 101/151, and only that is read here.
 */
export type ConsultOutcome =
  | 'authorized'
  | 'cancelled'
  | 'denied'
  | 'unknown'
  | 'forged'
  | 'misrouted'
  | 'too_old'
  | 'outage'
  | 'throttled'
  | 'unexpected';

/** The NF-e's status in our vocabulary (the sandbox's controls, the checks' reads): what the consult's outcomes say of the invoice (`too_old`: beyond the consult's age, 526). */
export const NFE_STATUSES = ['authorized', 'cancelled', 'denied', 'unknown', 'too_old'] as const;
export type NfeStatus = (typeof NFE_STATUSES)[number];

/**
 * What follows from an outcome: `pass` funds, `refuse` never funds, `wait` asks again later,
 * `alert` is our own defect (wrong authorizer), `policy` leaves it to the product (526: too old to consult).
 */
export type ConsultConsequence = 'pass' | 'refuse' | 'wait' | 'alert' | 'policy';

const OUTCOMES: Record<string, ConsultOutcome> = {
  100: 'authorized', 150: 'authorized',
  101: 'cancelled', 151: 'cancelled',
  110: 'denied', 301: 'denied', 302: 'denied', 303: 'denied',
  217: 'unknown',
  561: 'forged', 562: 'forged', 613: 'forged',
  226: 'misrouted',
  526: 'too_old',
  108: 'outage', 109: 'outage',
  656: 'throttled',
};

export function consultOutcome(cStat: string): ConsultOutcome {
  return OUTCOMES[cStat] ?? 'unexpected';
}

const CONSEQUENCES: Record<ConsultOutcome, ConsultConsequence> = {
  authorized: 'pass',
  cancelled: 'refuse',
  denied: 'refuse',
  unknown: 'refuse',
  forged: 'refuse',
  misrouted: 'alert',
  too_old: 'policy',
  outage: 'wait',
  throttled: 'wait',
  // A code nobody mapped is not a verdict on the invoice: ask again rather than refuse or pay.
  unexpected: 'wait',
};

export function consultConsequence(outcome: ConsultOutcome): ConsultConsequence {
  return CONSEQUENCES[outcome];
}

/**
 * `NFeDistribuicaoDFe` by key: 138 found documents, 137 found none; 108/109 paused, 656 throttled;
 * 593 (the CNPJ asked about is not the certificate's) and 640 (the party may not see this NF-e):
 * the certificate presented is not a party's, so the payer's events are not available to us.
 * Anything else means the events could not be read this time.
 */
export type DistributionOutcome = 'found' | 'none' | 'outage' | 'throttled' | 'not_available' | 'refused';

/** What SEFAZ answers a distribution asked with a certificate that is not of a party of the NF-e (NT 2014.002). */
export const NOT_A_PARTYS_CERTIFICATE = { cStat: '593', xMotivo: 'Rejeicao: CNPJ-Base consultado difere do CNPJ-Base do Certificado Digital' } as const;

/** Whether the issuer delegated its certificate to us: without it SEFAZ will not show us the payer's events. */
export const ISSUER_CERTIFICATES = ['delegated', 'not_delegated'] as const;
export type IssuerCertificate = (typeof ISSUER_CERTIFICATES)[number];

export function distributionOutcome(cStat: string): DistributionOutcome {
  if (cStat === '138') return 'found';
  if (cStat === '137') return 'none';
  if (cStat === '108' || cStat === '109') return 'outage';
  if (cStat === '656') return 'throttled';
  if (cStat === NOT_A_PARTYS_CERTIFICATE.cStat || cStat === '640') return 'not_available';
  return 'refused';
}
