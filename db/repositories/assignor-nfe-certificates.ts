import type { Knex } from 'knex';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import type { DistributionParty } from '../../domain/sefaz/port';
import { TenantScopedRepository } from './tenant-scoped';

/** What the read shows of a stored certificate: never the file or its password. */
export interface NfeCertificateMetadata {
  assignorId: string;
  subject: string;
  serial: string;
  notAfter: Date;
  uploadedAt: Date;
}

export interface NewNfeCertificate extends Omit<NfeCertificateMetadata, 'uploadedAt'> {
  sealedPfx: string;
  sealedPassphrase: string;
}

interface Row {
  assignor_id: string; subject: string; serial: string; not_after: Date; uploaded_at: Date;
}

const METADATA = ['assignor_id', 'subject', 'serial', 'not_after', 'uploaded_at'];
const toMetadata = (row: Row): NfeCertificateMetadata => ({ assignorId: row.assignor_id, subject: row.subject, serial: row.serial, notAfter: row.not_after, uploadedAt: row.uploaded_at });

/** `assignor_nfe_certificates`: an originator's assignors' delegated certificates, one each (a new one replaces it). */
export class AssignorNfeCertificatesRepository extends TenantScopedRepository {
  async put(certificate: NewNfeCertificate, at: Date): Promise<NfeCertificateMetadata> {
    const columns = {
      sealed_pfx: certificate.sealedPfx, sealed_passphrase: certificate.sealedPassphrase, subject: certificate.subject, serial: certificate.serial,
      not_after: certificate.notAfter, uploaded_at: at,
    };
    const [row] = await this.insertOwned('assignor_nfe_certificates', { assignor_id: certificate.assignorId, ...columns })
      .onConflict('assignor_id').merge(columns).returning(METADATA);
    return toMetadata(row as Row);
  }

  async metadata(assignorId: string): Promise<NfeCertificateMetadata | null> {
    const row = await this.scoped('assignor_nfe_certificates').where({ assignor_id: assignorId }).first(METADATA);
    return row ? toMetadata(row as Row) : null;
  }

  /** False when there was none. */
  async remove(assignorId: string): Promise<boolean> {
    return (await this.scoped('assignor_nfe_certificates').where({ assignor_id: assignorId }).delete()) > 0;
  }
}

/** A PKCS#12 file and its password, opened, to present to SEFAZ. */
export type OpenedCertificate = NonNullable<DistributionParty['certificate']>;

/** The issuer's delegated certificate, opened with the ring, or null when it stored none (the worker's and creation's checks at SEFAZ). */
export async function issuerCertificate(db: Knex, ring: CipherRing, assignorId: string): Promise<OpenedCertificate | null> {
  const row: { sealed_pfx: string; sealed_passphrase: string } | undefined = await db('assignor_nfe_certificates').where({ assignor_id: assignorId }).first('sealed_pfx', 'sealed_passphrase');
  return row ? { pfx: Buffer.from(ring.openText(row.sealed_pfx), 'base64'), passphrase: ring.openText(row.sealed_passphrase) } : null;
}
