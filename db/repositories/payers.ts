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
    const read = async () => new Map((await this.scoped('payers').select('id', 'document', 'name', 'limit_brl').whereIn('document', documents) as PayerRow[])
      .map((row) => [row.document, row]));
    const known = await read();
    const missing = documents.filter((document) => !known.has(document));
    if (missing.length === 0) return known;
    await this.insertOwned('payers', missing.map((document) => ({ id: uuidv7(), document, name: byDocument.get(document)! })))
      .onConflict(['originator_id', 'document']).ignore();
    return read();
  }
}
