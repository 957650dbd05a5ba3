/**
 * A product's `payer_confirmation` policy: with `required`, no PIX leaves before the payer's latest
 * conclusive manifestação on each NF-e is a confirmation (210200). The payer registers it when it
 * likes, so the check is asked again, further apart each time, until the product's deadline.
 */
export const PAYER_CONFIRMATION_POLICIES = ['none', 'required'] as const;
export type PayerConfirmationPolicy = (typeof PAYER_CONFIRMATION_POLICIES)[number];

export interface PayerConfirmation {
  policy: PayerConfirmationPolicy;
  /** Days from the first check before the PIX to the cancellation when the payer has not confirmed. */
  deadlineDays: number;
}

/** A product's default (the column's too); at most 180, as manifestações count only within 180 days of authorization. */
const DEFAULT_PAYER_CONFIRMATION_DEADLINE_DAYS = 10;

export const NO_PAYER_CONFIRMATION: PayerConfirmation = { policy: 'none', deadlineDays: DEFAULT_PAYER_CONFIRMATION_DEADLINE_DAYS };

const FIRST_RECHECK_MS = 15 * 60_000;
const LONGEST_RECHECK_MS = 6 * 3_600_000;
const DAY_MS = 86_400_000;

/** How long after its `n`th check (1, 2, ...) an NF-e awaiting its payer is asked again: 15 min doubling to 6 h, far below SEFAZ's per-key limit. */
export function payerRecheckDelayMs(n: number): number {
  return Math.min(FIRST_RECHECK_MS * 2 ** Math.max(0, n - 1), LONGEST_RECHECK_MS);
}

/** When the wait for the payer's confirmation ends, from the first check before the PIX. */
export function payerConfirmationDeadline(firstCheckAt: Date, deadlineDays: number): string {
  return new Date(firstCheckAt.getTime() + deadlineDays * DAY_MS).toISOString();
}
