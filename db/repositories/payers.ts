import { v7 as uuidv7 } from 'uuid';
import { TenantScopedRepository } from './tenant-scoped';

export interface PayerRow {
  id: string;
  document: string;
  name: string;
  limitBrl: string | null;
  /** Inserted by this transaction: the row goes if the request is refused. */
  registeredNow: boolean;
}

/**
 * Payers are created on the spot and reused by document, so per-payer exposure accumulates by
 * document across operations (contract: "Entities").
 */
export class PayersRepository extends TenantScopedRepository {
  /**
   * The payers of these documents, creating those not registered yet; none is locked: a payer's exposure is
   * guarded by its counter, which creation locks only right before its inserts
   * (`ExposureRepository.lockForOperation`). Inserted in document order, so two requests
   * registering the same new payers wait on each other's insert in one order, never in a cycle.
   */
  async ensureByDocument(payers: readonly { document: string; name: string }[]): Promise<Map<string, PayerRow>> {
    const byDocument = new Map(payers.map((p) => [p.document, p.name]));
    const documents = [...byDocument.keys()].sort();
    if (documents.length === 0) return new Map();
    const read = async (inserted: ReadonlySet<string>): Promise<Map<string, PayerRow>> => {
      const rows: Omit<PayerRow, 'registeredNow'>[] = await this.scoped('payers').select('id', 'document', 'name', 'limit_brl as limitBrl').whereIn('document', documents);
      return new Map(rows.map((row) => [row.document, { ...row, registeredNow: inserted.has(row.id) }]));
    };
    const known = await read(new Set());
    const missing = documents.filter((document) => !known.has(document));
    if (missing.length === 0) return known;
    const inserted: { id: string }[] = await this.insertOwned('payers', missing.map((document) => ({ id: uuidv7(), document, name: byDocument.get(document)! })))
      .onConflict(['originator_id', 'document']).ignore().returning('id');
    return read(new Set(inserted.map((row) => row.id)));
  }
}
