import { isDisowning, latestConclusive, PayerEvent } from './payer-events';
import type { NfeStatusAnswer, PayerEventsAnswer } from './port';

/**
 * After payout, an open title's NF-e is asked about daily: a payer disowning it or the NF-e cancelled
 * puts the title in dispute (an event and a flag for people; no money moves). Conclusive manifestações
 * count only within 180 days of authorization, so the re-check stops then.
 */
export const TITLE_DISPUTE_REASONS = ['nfe_cancelled', 'nfe_disowned_by_payer'] as const;
export type TitleDisputeReason = (typeof TITLE_DISPUTE_REASONS)[number];

export interface TitleDispute {
  reason: TitleDisputeReason;
  cStat: string;
  xMotivo: string;
  payerEvent: PayerEvent | null;
}

/** The dispute SEFAZ's answers show, or null (authorized and not disowned, or no verdict: asked again tomorrow). */
export function titleDispute(status: NfeStatusAnswer, payer: PayerEventsAnswer): TitleDispute | null {
  if (status.outcome === 'cancelled') return { reason: 'nfe_cancelled', cStat: status.cStat, xMotivo: status.reason, payerEvent: null };
  if (payer.outcome !== 'found') return null;
  const word = latestConclusive(payer.events, status.authorizedAt);
  return isDisowning(word) ? { reason: 'nfe_disowned_by_payer', cStat: payer.cStat, xMotivo: payer.reason, payerEvent: word!.event } : null;
}

const WINDOW_DAYS = 180;
const DAY_MS = 86_400_000;

/**
 * Whether `key`'s NF-e may still be re-checked at `now`. The key holds its issue month (AAMM), and
 * authorization follows issue: counting from the first day of the month after it, no NF-e whose
 * window is still open is left out.
 */
export function recheckWindowOpen(key: string, now: Date): boolean {
  const year = 2000 + Number(key.slice(2, 4));
  const month = Number(key.slice(4, 6));
  return now.getTime() < Date.UTC(year, month, 1) + WINDOW_DAYS * DAY_MS;
}
