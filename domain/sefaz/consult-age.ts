/**
 * A product's policy for an NF-e SEFAZ no longer consults (cStat 526: the key is beyond the
 * consult's age limit), so its status cannot be checked at its source. `refuse` never funds it;
 * `accept_with_xml` funds it when the receivable carried its procNFe, verified at creation (the
 * issuer's signature and SEFAZ's own authorization protocol inside it stand in for the consult).
 */
export const NFE_BEYOND_CONSULT_AGE_POLICIES = ['refuse', 'accept_with_xml'] as const;
export type NfeBeyondConsultAgePolicy = (typeof NFE_BEYOND_CONSULT_AGE_POLICIES)[number];

export const DEFAULT_NFE_BEYOND_CONSULT_AGE: NfeBeyondConsultAgePolicy = 'refuse';

/** Whether a 526 passes for one receivable: only under `accept_with_xml`, and only with its XML proof. */
export const beyondConsultAgeAccepted = (policy: NfeBeyondConsultAgePolicy, provenByXml: boolean): boolean => policy === 'accept_with_xml' && provenByXml;
