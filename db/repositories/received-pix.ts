import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { fromColumns } from './columns';

/** What a received PIX went to: a title's payment, back to the payer whole, or suspense until it is applied. */
export type ReceiptUse = 'title' | 'refunded' | 'suspense';

export interface ReceivedPixRow {
  id: string;
  originatorId: string;
  endToEndId: string;
  txid: string | null;
  pixKey: string | null;
  amountBrl: string;
  payerInfo: string | null;
  paidAt: Date;
  titleId: string | null;
  appliedTo: ReceiptUse | null;
  titlePaymentId: string | null;
}

export type NewReceipt = Pick<ReceivedPixRow, 'originatorId' | 'endToEndId' | 'txid' | 'pixKey' | 'amountBrl' | 'payerInfo' | 'paidAt' | 'titleId'>;

/**
 * Every PIX the collection PSP received, across originators: its webhook and sweep know an
 * endToEndId and a key, not a tenant (like PixChargesRepository).
 */
export class ReceivedPixRepository {
  constructor(private readonly db: Knex) {}

  /** Once per endToEndId: the PSP's repeats and the sweep find the first row. */
  async record(receipt: NewReceipt): Promise<void> {
    await this.db('received_pix').insert({
      id: uuidv7(), originator_id: receipt.originatorId, end_to_end_id: receipt.endToEndId, txid: receipt.txid, pix_key: receipt.pixKey,
      amount_brl: receipt.amountBrl, payer_info: receipt.payerInfo, paid_at: receipt.paidAt, title_id: receipt.titleId,
    }).onConflict('end_to_end_id').ignore();
  }

  /** The row locked: who books the PIX decides under this lock, so one PIX is booked once. */
  async lock(endToEndId: string): Promise<ReceivedPixRow | undefined> {
    const row = await this.db('received_pix').where({ end_to_end_id: endToEndId }).forUpdate().first();
    return row ? fromColumns<ReceivedPixRow>(row) : undefined;
  }

  async markApplied(endToEndId: string, use: ReceiptUse, titlePaymentId: string | null = null): Promise<void> {
    await this.db('received_pix').where({ end_to_end_id: endToEndId }).update({ applied_to: use, title_payment_id: titlePaymentId, applied_at: this.db.fn.now() });
  }

  /** The originator that collects on `pixKey`, if one does. */
  async originatorOfKey(pixKey: string): Promise<string | undefined> {
    const row = await this.db('originators').where({ collection_pix_key: pixKey }).first('id');
    return row?.id;
  }
}
