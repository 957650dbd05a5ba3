import { RuleViolation } from './errors';

/**
 * An assignor's delegated A1 certificate, with which SEFAZ's NFeDistribuicaoDFe shows us the
 * payer's manifestações on the NF-e it issued. SEFAZ serves a key's events to a certificate whose
 * CNPJ root (its first 8 characters: the company, any branch) is the party's (cStat 593 otherwise),
 * so that is what must match; an e-CPF must be the person's own CPF.
 */
const ROOT_LENGTH = 8;

/** The document an ICP-Brasil certificate's CN carries after its last colon (DOC-ICP-04: `<name>:<CNPJ or CPF>`). */
function documentOfCommonName(commonName: string | null): string | null {
  const found = commonName ? /:([0-9A-Z]{11}|[0-9A-Z]{14})$/.exec(commonName.trim().toUpperCase()) : null;
  return found ? found[1] : null;
}

function sameParty(certificateDocument: string | null, assignorDocument: string): boolean {
  if (certificateDocument === null || certificateDocument.length !== assignorDocument.length) return false;
  return assignorDocument.length === 11 ? certificateDocument === assignorDocument : certificateDocument.slice(0, ROOT_LENGTH) === assignorDocument.slice(0, ROOT_LENGTH);
}

/** Why a readable certificate cannot be the assignor's delegated one, or null. */
export function certificateRefusal(certificate: { commonName: string | null; notAfter: Date }, assignorDocument: string, now: Date): RuleViolation | null {
  const document = documentOfCommonName(certificate.commonName);
  if (!sameParty(document, assignorDocument)) {
    return new RuleViolation({
      code: 'certificate_not_assignors',
      message: `The certificate's subject (${document ?? 'no CNPJ or CPF in its CN'}) is not the assignor's ${assignorDocument}: SEFAZ shows an NF-e's events only to its parties`,
      loc: ['body', 'pfx'],
    });
  }
  if (certificate.notAfter.getTime() <= now.getTime()) {
    return new RuleViolation({ code: 'certificate_expired', message: `The certificate expired at ${certificate.notAfter.toISOString()}`, loc: ['body', 'pfx'], not_after: certificate.notAfter.toISOString() });
  }
  return null;
}

export const unreadableCertificate = (why: string): RuleViolation =>
  new RuleViolation({ code: 'certificate_unreadable', message: `The PFX does not open with this password, or is not a PKCS#12 this service can present (${why})`, loc: ['body', 'pfx'] });
