import { X509Certificate } from 'node:crypto';

/** Past this many links a chain is refused: ICP-Brasil's are three or four long. */
const MAX_DEPTH = 6;

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export class CertificateBundleError extends Error {}

/** Every certificate of a PEM bundle; a bundle with none, or one that does not parse, is refused. */
export function certificatesOfBundle(pem: string, what: string): X509Certificate[] {
  const blocks = pem.match(PEM_CERTIFICATE) ?? [];
  if (blocks.length === 0) throw new CertificateBundleError(`${what} holds no PEM certificate`);
  return blocks.map((block, index) => {
    try {
      return new X509Certificate(block);
    } catch {
      throw new CertificateBundleError(`${what}: certificate ${index + 1} does not parse`);
    }
  });
}

const validAt = (cert: X509Certificate, at: Date): boolean => cert.validFromDate <= at && at <= cert.validToDate;

const issuedBy = (cert: X509Certificate, issuer: X509Certificate): boolean => issuer.ca && cert.checkIssued(issuer) && cert.verify(issuer.publicKey);

/**
 * The roots a signer's certificate must chain to (ICP-Brasil's, by configuration). A chain is
 * built from the signer's certificate through the intermediates the signature carries, each
 * link signed by the next and valid at the moment the document was signed.
 */
export class TrustedRoots {
  constructor(private readonly roots: readonly X509Certificate[]) {}

  /** Null when `leaf` chains to a root; else why not. */
  untrustedBecause(leaf: X509Certificate, intermediates: readonly X509Certificate[], at: Date): string | null {
    let current = leaf;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      if (!validAt(current, at)) return `certificate "${current.subject}" is not valid at ${at.toISOString()}`;
      const root = this.roots.find((candidate) => issuedBy(current, candidate));
      if (root) return validAt(root, at) ? null : `root "${root.subject}" is not valid at ${at.toISOString()}`;
      const next = intermediates.find((candidate) => candidate !== current && issuedBy(current, candidate));
      if (!next) return `certificate "${current.subject}" chains to no trusted root`;
      current = next;
    }
    return `the chain is longer than ${MAX_DEPTH} certificates`;
  }
}
