import type { Knex } from 'knex';
import { issuerCertificate, OpenedCertificate } from '../db/repositories/assignor-nfe-certificates';
import type { DistributionParty } from '../domain/sefaz/port';
import type { CipherRing } from '../platform/crypto/cipher-ring';

/**
 * Who asks SEFAZ's distribution for an NF-e's payer events: its issuer (our assignor), with the
 * delegated certificate it stored, when it stored one. One run asks about many titles of the
 * same assignor, so each certificate is opened once per run.
 */
export function issuerParties(db: Knex, ring: CipherRing): (issuer: { assignorId: string; issuerDocument: string }) => Promise<DistributionParty> {
  const opened = new Map<string, Promise<OpenedCertificate | null>>();
  return async ({ assignorId, issuerDocument }) => {
    if (!opened.has(assignorId)) opened.set(assignorId, issuerCertificate(db, ring, assignorId));
    return { document: issuerDocument, certificate: await opened.get(assignorId)! };
  };
}
