import type { Knex } from 'knex';
import type { ReceivedPix } from '../../providers/api-pix-client';
import { NewReceipt, ReceivedPixRepository } from '../../db/repositories/received-pix';
import { ReceiptBooks } from '../../db/repositories/ledger-receipt-books';
import { TrackedTitlesRepository } from '../../db/repositories/tracked-titles';

const receiptOf = (originatorId: string, pix: ReceivedPix, titleId: string | null): NewReceipt => ({
  originatorId, endToEndId: pix.endToEndId, txid: pix.txid, pixKey: pix.pixKey, amountBrl: pix.amount, payerInfo: pix.payerInfo, paidAt: new Date(pix.paidAt), titleId,
});

/** Every PIX received is stored, once, before anything is done with it: what it went to is decided on this row. */
export function recordReceipt(db: Knex, originatorId: string, pix: ReceivedPix, titleId: string): Promise<void> {
  return new ReceivedPixRepository(db).record(receiptOf(originatorId, pix, titleId));
}

/**
 * A PIX that matches no charge of ours, held in suspense in the books of the originator whose key
 * received it, until someone identifies it. One sent to a key no originator collects on is not ours.
 */
export async function holdUnmatched(db: Knex, pix: ReceivedPix): Promise<void> {
  const originatorId = pix.pixKey === null ? undefined : await new ReceivedPixRepository(db).originatorOfKey(pix.pixKey);
  if (!originatorId) return;
  await db.transaction(async (trx) => {
    await new ReceivedPixRepository(trx).record(receiptOf(originatorId, pix, null));
    await new ReceiptBooks(trx, originatorId).heldInSuspense(pix.endToEndId);
  });
}

/** A PIX its title refused for now (left for the PSP's retry or the next sweep) waits in suspense. */
export function holdForRetry(db: Knex, originatorId: string, endToEndId: string): Promise<void> {
  return db.transaction((trx) => new ReceiptBooks(trx, originatorId).heldInSuspense(endToEndId));
}

/** A PIX its title took nothing of, about to go back whole: booked under the title's lock, as its payments are. */
export function refundWhole(db: Knex, originatorId: string, titleId: string, endToEndId: string, at: Date): Promise<void> {
  return db.transaction(async (trx) => {
    const title = (await new TrackedTitlesRepository(trx).lock(titleId))!;
    await new ReceiptBooks(trx, originatorId).refundedWhole(endToEndId, { titleId, operationId: title.operationId, assignorId: title.assignorId }, at);
  });
}
