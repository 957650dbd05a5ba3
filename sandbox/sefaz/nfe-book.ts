import type { PayerEvent } from '../../domain/sefaz/payer-events';
import type { IssuerCertificate, NfeStatus } from '../../domain/sefaz/status-codes';

/** What the sandbox's SEFAZ says of one key: set by an integrator, or the default for a key never set. */
export interface NfeRecord {
  status: NfeStatus;
  payerEvent: PayerEvent | null;
  /** When the sandbox first heard of the key: its authorization (`dhRecbto`). */
  authorizedAt: string;
  /** When the status was last set (a cancellation's `dhEvento`). */
  statusAt: string;
  /** When the payer event was set (its `dhEvento`). */
  payerEventAt: string | null;
  /** `not_delegated`: the distribution answers 593, as SEFAZ does to a certificate that is not the issuer's (absent in older state files: delegated). */
  issuerCertificate?: IssuerCertificate;
}

export interface SefazSnapshot {
  keys: [string, NfeRecord][];
  outageUntil: string | null;
}

/**
 * The sandbox's SEFAZ: every key it has answered or been told about. A key never set is authorized
 * with no payer event and its issuer's certificate delegated, authorized when first asked; an outage answers 109 to both services until it ends.
 */
export class NfeBook {
  private readonly keys = new Map<string, NfeRecord>();
  private outageUntil: string | null = null;

  constructor(private readonly now: () => Date) {}

  of(key: string): NfeRecord {
    let record = this.keys.get(key);
    if (!record) {
      const at = this.now().toISOString();
      record = { status: 'authorized', payerEvent: null, authorizedAt: at, statusAt: at, payerEventAt: null };
      this.keys.set(key, record);
    }
    return record;
  }

  set(key: string, status: NfeStatus, payerEvent: PayerEvent | null, issuerCertificate: IssuerCertificate): NfeRecord {
    const record = this.of(key);
    const at = this.now().toISOString();
    record.issuerCertificate = issuerCertificate;
    if (record.status !== status) Object.assign(record, { status, statusAt: at });
    if (record.payerEvent !== payerEvent) Object.assign(record, { payerEvent, payerEventAt: payerEvent === null ? null : at });
    return record;
  }

  startOutage(seconds: number): string {
    this.outageUntil = new Date(this.now().getTime() + seconds * 1000).toISOString();
    return this.outageUntil;
  }

  inOutage(): boolean {
    return this.outageUntil !== null && Date.parse(this.outageUntil) > this.now().getTime();
  }

  snapshot(): SefazSnapshot {
    return { keys: [...this.keys.entries()], outageUntil: this.outageUntil };
  }

  restore(snapshot: SefazSnapshot): void {
    for (const [key, record] of snapshot.keys) this.keys.set(key, record);
    this.outageUntil = snapshot.outageUntil;
  }
}
