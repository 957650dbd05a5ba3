/**
 * A title's charge txid: its id's 32 hex digits, within API Pix's 26–35 alphanumerics. Derived,
 * never drawn, so an activity that retries after the PSP answered finds the same charge.
 */
export function txidOfTitle(titleId: string): string {
  const txid = titleId.replace(/-/g, '');
  if (!/^[0-9a-f]{32}$/i.test(txid)) throw new Error(`title id ${titleId} is not a UUID`);
  return txid;
}

/** The refund of a PIX's excess: one per PIX, so asking again is the same refund. */
export function refundIdOf(endToEndId: string): string {
  return `R${endToEndId}`.slice(0, 35);
}
