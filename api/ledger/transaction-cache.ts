import type { RenderedTransaction } from '../../db/repositories/ledger-reads';
import { cacheRequests } from '../../platform/telemetry/metrics';
import { ByteLru } from '../cache/byte-lru';
import { jsonPage, JsonText } from '../http/handle';

type Render = (missing: string[]) => Promise<RenderedTransaction[]>;

type PageFields = { total: number; limit: number; offset: number };

/** A page whose transactions were all posted: which ones, its fields, and its body. */
interface KeptPage {
  ids: readonly string[];
  fields: PageFields;
  body: Buffer;
}

const sameIds = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((id, at) => id === b[at]);
const sameFields = (a: PageFields, b: PageFields) => a.total === b.total && a.limit === b.limit && a.offset === b.offset;

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
  /**
   * The body last assembled for an originator's query, when all its transactions were posted: the
   * same ids, count and bounds make the same bytes, so a page polled again costs no lookup per transaction
   * and no copy of the page.
   */
  private readonly pages: ByteLru<KeptPage>;
  private readonly hits = cacheRequests.labels('ledger_transactions', 'hit');
  private readonly misses = cacheRequests.labels('ledger_transactions', 'miss');

  /** A quarter of `maxBytes` for pages, the rest for renderings: together they stay within it. */
  constructor(maxBytes: number) {
    const forPages = Math.floor(maxBytes / 4);
    this.kept = new ByteLru<Buffer>(maxBytes - forPages, (json) => json.length);
    this.pages = new ByteLru<KeptPage>(forPages, (page) => page.body.length);
  }

  /**
   * The renderings of the originator's transactions `ids`, in their order; those not kept rendered
   * together by one call of `render`, and kept when posted. An id `render` does not return (not
   * the originator's) is left out.
   */
  async renderings(originatorId: string, ids: readonly string[], render: Render): Promise<Buffer[]> {
    return (await this.assemble(originatorId, ids, render)).items;
  }

  /**
   * The page `{"items":[…], total, limit, offset}` of the originator's transactions `ids`, which
   * the request `query` (its filters and bounds) listed: the body kept for that query when it holds
   * the same ids and fields, else assembled from the renderings and kept if all were posted.
   */
  async page(originatorId: string, query: string, ids: readonly string[], fields: PageFields, render: Render): Promise<JsonText> {
    const last = this.pages.get(originatorId, query);
    if (last !== undefined && sameFields(last.fields, fields) && sameIds(last.ids, ids)) {
      this.hits.inc(ids.length);
      return new JsonText([last.body]);
    }
    const { items, allPosted } = await this.assemble(originatorId, ids, render);
    const page = jsonPage(items, fields);
    if (!allPosted) return page;
    const body = Buffer.concat(page.chunks, page.length);
    this.pages.set(originatorId, query, { ids, fields, body });
    return new JsonText([body]);
  }

  private async assemble(originatorId: string, ids: readonly string[], render: Render): Promise<{ items: Buffer[]; allPosted: boolean }> {
    const found = ids.map((id) => this.kept.get(originatorId, id));
    const missing = ids.filter((_id, at) => found[at] === undefined);
    // Counted once per page, not per item, as the other caches' pages are.
    this.hits.inc(ids.length - missing.length);
    this.misses.inc(missing.length);
    if (missing.length === 0) return { items: found as Buffer[], allPosted: true };
    const rendered = new Map<string, Buffer>();
    let renderedPosted = 0;
    for (const transaction of await render(missing)) {
      const json = Buffer.from(transaction.json);
      rendered.set(transaction.id, json);
      if (!transaction.posted) continue;
      this.kept.set(originatorId, transaction.id, json);
      renderedPosted += 1;
    }
    const items = ids.map((id, at) => found[at] ?? rendered.get(id)).filter((json): json is Buffer => json !== undefined);
    return { items, allPosted: renderedPosted === missing.length };
  }
}
