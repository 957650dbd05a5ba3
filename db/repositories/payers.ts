import { v7 as uuidv7 } from 'uuid';
import { TenantScopedRepository } from './tenant-scoped';

export interface PayerRow {
  id: string;
  document: string;
  name: string;
  limit_brl: string | null;
}

/**
 * Payers are created on the spot and reused by document, so per-payer exposure accumulates by
 * document across operations (contract: "Entities").
 */
export class PayersRepository extends TenantScopedRepository {
  /** Creates the missing ones and locks them all, in document order so concurrent operations never deadlock. */
  async ensureLocked(payers: readonly { document: string; name: string }[]): Promise<Map<string, PayerRow>> {
    const byDocument = new Map(payers.map((p) => [p.document, p.name]));
    const documents = [...byDocument.keys()].sort();
    if (documents.length === 0) return new Map();
    await this.insertOwned('payers', documents.map((document) => ({ id: uuidv7(), document, name: byDocument.get(document)! })))
      .onConflict(['originator_id', 'document']).ignore();
    const rows: PayerRow[] = await this.scoped('payers').select('id', 'document', 'name', 'limit_brl')
      .whereIn('document', documents).orderBy('document').forUpdate();
    return new Map(rows.map((row) => [row.document, row]));
  }
}
