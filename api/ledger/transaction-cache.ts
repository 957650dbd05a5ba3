import type { RenderedTransaction } from '../../db/repositories/ledger-reads';
import { cacheRequests } from '../../platform/telemetry/metrics';
import { ByteLru } from '../cache/byte-lru';

/**
 * The renderings (a LedgerTransaction's JSON as UTF-8, the bytes a page carries for it) of posted
 * ledger transactions, kept in this process by originator and transaction id. A posted transaction
 * never changes: the database lets an UPDATE move a transaction only from pending to posted or
 * voided, and refuses any DELETE and any change to entries (migration 20261128085514), and an
 * account's kind is never updated; a correction is a new transaction. So nothing invalidates
 * them. A pending one is rendered every time, so it is answered in its new state once it posts.
 * docs/decisions.md "Kept renderings of posted ledger transactions".
 */
export class LedgerTransactionCache {
  private readonly kept: ByteLru<Buffer>;
  private readonly hits = cacheRequests.labels('ledger_transactions', 'hit');
  private readonly misses = cacheRequests.labels('ledger_transactions', 'miss');

  constructor(maxBytes: number) {
    this.kept = new ByteLru<Buffer>(maxBytes, (json) => json.length);
  }

  /**
   * The renderings of the originator's transactions `ids`, in their order; those not kept rendered
   * together by one call of `render`, and kept when posted. An id `render` does not return (not
   * the originator's) is left out.
   */
  async renderings(originatorId: string, ids: readonly string[], render: (missing: string[]) => Promise<RenderedTransaction[]>): Promise<Buffer[]> {
    const found = ids.map((id) => this.kept.get(originatorId, id));
    const missing = ids.filter((_id, at) => found[at] === undefined);
    // Counted once per page, not per item, as the other caches' pages are.
    this.hits.inc(ids.length - missing.length);
    this.misses.inc(missing.length);
    if (missing.length === 0) return found as Buffer[];
    const rendered = new Map<string, Buffer>();
    for (const transaction of await render(missing)) {
      const json = Buffer.from(transaction.json);
      rendered.set(transaction.id, json);
      if (transaction.posted) this.kept.set(originatorId, transaction.id, json);
    }
    return ids.map((id, at) => found[at] ?? rendered.get(id)).filter((json): json is Buffer => json !== undefined);
  }
}
