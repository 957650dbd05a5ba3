import { keyOfFingerprint } from '../receivable-identity';
import { checkedAtSefaz } from './creation-refusal';
import type { NfeCancellationReason, NfeCheckStatus, PayerEventsRead } from './payout-check';
import type { PayerEvent } from './payer-events';

/** A receivable's NF-e check as the operation read shows it. */
export interface NfeCheckView {
  status: NfeCheckStatus | 'not_applicable';
  reason: NfeCancellationReason | null;
  cstat: string | null;
  xmotivo: string | null;
  payer_event: PayerEvent | null;
  payer_events: PayerEventsRead | null;
  checked_at: string | null;
}

const NONE = { reason: null, cstat: null, xmotivo: null, payer_event: null, payer_events: null, checked_at: null };

/**
 * `not_applicable` for a receivable no NF-e (model 55) backs (NFC-e, NFS-e, CT-e, a duplicata or
 * boleto without a key); `pending` for one not checked yet; else the latest check.
 */
export function nfeCheckView(fingerprint: string | null, latest: { status: NfeCheckStatus; reason: NfeCancellationReason | null; cStat: string; xMotivo: string; payerEvent: PayerEvent | null; payerEvents: PayerEventsRead; checkedAt: Date } | undefined): NfeCheckView {
  const key = fingerprint === null ? null : keyOfFingerprint(fingerprint);
  if (key === null || !checkedAtSefaz(key)) return { status: 'not_applicable', ...NONE };
  if (!latest) return { status: 'pending', ...NONE };
  return { status: latest.status, reason: latest.reason, cstat: latest.cStat, xmotivo: latest.xMotivo, payer_event: latest.payerEvent, payer_events: latest.payerEvents, checked_at: latest.checkedAt.toISOString() };
}
