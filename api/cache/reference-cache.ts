import type { Knex } from 'knex';
import { CredentialRow, IdentityRepository, UserRow } from '../../db/repositories/identity';
import { PoliciesRepository } from '../../db/repositories/policies';
import { Product, ProductsRepository } from '../../db/repositories/products';
import { listen, Listener } from '../../db/listener';
import type { FeeDefaults, Policy } from '../../domain/pricing';
import type { Logger } from '../../platform/logger';
import { CacheState, ScopedCache } from './scoped-cache';

export const REFERENCE_CHANNEL = 'reference_changed';
const RECONNECT_MS = 250;
/** Bytes of rendered operations kept per process: about 3,000 operations of 10 titles. */
const OPERATION_READ_BYTES = 32_000_000;
/** Bytes of rendered event envelopes kept per process: about 50,000 events of a few hundred bytes. */
const EVENT_ENVELOPE_BYTES = 16_000_000;
/** Bytes of assembled event pages kept per process: one page per originator and page size, about 33 KB each at 100 events. */
const EVENT_PAGE_BYTES = 16_000_000;

/**
 * What almost every request reads and almost nothing writes, kept in this process: credentials and
 * users (revocation, scopes), policies, assignors' and payers' fee defaults, products; the
 * operation reads integrators poll far more often than an operation changes; and the envelopes of
 * listed events, which never change. The triggers of
 * migrations 20261123200000 and 20261124001000 NOTIFY every change; `invalidate` drops what it names, a
 * (re)connect of the listener drops everything, and entries expire after `ttlMs` whatever happens.
 * While the listener is down nothing is cached. docs/decisions.md "Caches".
 */
export class ReferenceCache {
  readonly state: CacheState;
  private readonly credentials: ScopedCache<CredentialRow | undefined>;
  private readonly credentialsByClientId: ScopedCache<CredentialRow | undefined>;
  private readonly users: ScopedCache<UserRow | undefined>;
  private readonly policies: ScopedCache<Policy | null>;
  private readonly assignorFees: ScopedCache<FeeDefaults | null>;
  private readonly payerFees: ScopedCache<FeeDefaults | null>;
  private readonly products: ScopedCache<{ items: Product[]; total: number }>;
  /** Rendered reads (JSON as UTF-8), scoped by operation id (what the notifications name) and keyed by originator (the tenant that asked). */
  private readonly operations: ScopedCache<Buffer>;
  /** Rendered event envelopes (JSON as UTF-8), scoped by originator. */
  private readonly events: ScopedCache<Buffer>;
  /** The page of events last assembled per originator (the scope), page size and direction: which ids it holds, and its body in one piece. */
  private readonly eventPages: ScopedCache<{ key: string; body: Buffer }>;
  private readonly byTable: Record<string, (scope: string) => void>;
  /** What other parts of the process hold and reload on a table's notification (the signing keys), and after every reconnect. */
  private readonly watchers = new Map<string, () => void>();

  constructor(private readonly db: Knex, ttlMs: number) {
    this.state = new CacheState(ttlMs);
    this.credentials = new ScopedCache(this.state, 'credentials');
    this.credentialsByClientId = new ScopedCache(this.state, 'credentials_by_client_id');
    this.users = new ScopedCache(this.state, 'users');
    this.policies = new ScopedCache(this.state, 'policies');
    this.assignorFees = new ScopedCache(this.state, 'assignor_fees');
    this.payerFees = new ScopedCache(this.state, 'payer_fees');
    this.products = new ScopedCache(this.state, 'products');
    // A rendered read carries every title (kilobytes, and up to a megabyte): bounded by its bytes, not counted.
    this.operations = new ScopedCache(this.state, 'operation_reads', OPERATION_READ_BYTES, (json) => json.length);
    this.events = new ScopedCache(this.state, 'event_envelopes', EVENT_ENVELOPE_BYTES, (json) => json.length);
    this.eventPages = new ScopedCache(this.state, 'event_pages', EVENT_PAGE_BYTES, (page) => page.body.length);
    const scoped = (cache: Pick<ScopedCache<unknown>, 'clear' | 'drop'>) => (scope: string) => (scope === '*' ? cache.clear() : cache.drop(scope));
    this.byTable = {
      // A credential is also cached under its client id, which the notification does not carry: rare enough to drop them all.
      api_credentials: (scope) => { scoped(this.credentials)(scope); this.credentialsByClientId.clear(); },
      users: scoped(this.users),
      policies: scoped(this.policies),
      products: scoped(this.products),
      assignors: scoped(this.assignorFees),
      payers: scoped(this.payerFees),
      operations: scoped(this.operations),
      titles: scoped(this.operations),
      nfe_checks: scoped(this.operations),
      title_registrations: scoped(this.operations),
    };
  }

  /** Listens for changes on a dedicated connection; caching starts once LISTEN is in place. */
  listen(databaseUrl: string, logger: Logger): Listener {
    return listen({
      databaseUrl, channel: REFERENCE_CHANNEL, applicationName: 'api-reference-cache', reconnectMs: RECONNECT_MS,
      onNotify: (payload) => this.invalidate(payload),
      onConnect: () => {
        this.reset(true);
        for (const reload of this.watchers.values()) reload();
      },
      onLost: (err) => {
        this.reset(false);
        logger.warn('reference cache lost its LISTEN connection: reading through until it is back', { err: err?.message });
      },
    });
  }

  /** `reload` runs on every notification about `table`, and after every reconnect (notifications may have been missed). */
  watch(table: string, reload: () => void): void {
    this.watchers.set(table, reload);
  }

  /** A `table:scope` payload of the triggers. */
  invalidate(payload: string): void {
    const at = payload.indexOf(':');
    const table = payload.slice(0, at);
    const watcher = this.watchers.get(table);
    if (watcher) return watcher();
    const drop = this.byTable[table];
    this.state.epoch += 1;
    if (drop) drop(payload.slice(at + 1));
    else this.reset(this.state.live);
  }

  private reset(live: boolean): void {
    this.state.epoch += 1;
    this.state.live = live;
    for (const cache of [this.credentials, this.credentialsByClientId, this.users, this.policies, this.assignorFees, this.payerFees, this.products, this.operations, this.events, this.eventPages]) cache.clear();
  }

  credentialById(id: string): Promise<CredentialRow | undefined> {
    return this.credentials.get(id, '', () => new IdentityRepository(this.db).credentialById(id));
  }

  credentialByClientId(clientId: string): Promise<CredentialRow | undefined> {
    return this.credentialsByClientId.get(clientId, '', () => new IdentityRepository(this.db).credentialByClientId(clientId));
  }

  userById(id: string): Promise<UserRow | undefined> {
    return this.users.get(id, '', () => new IdentityRepository(this.db).userById(id));
  }

  /** The policy named, or the active one when `policyId` is null; null when there is none. */
  policy(originatorId: string, policyId: string | null): Promise<Policy | null> {
    return this.policies.get(originatorId, policyId ?? '', () => new PoliciesRepository(this.db, originatorId).find(policyId));
  }

  assignorFeeDefaults(originatorId: string, document: string): Promise<FeeDefaults | null> {
    return this.assignorFees.get(originatorId, document, () => new PoliciesRepository(this.db, originatorId).assignorFeeDefaults(document));
  }

  /** Fee defaults of the payers that have a row (as PoliciesRepository.payerFeeDefaults); one query for those not cached. */
  async payerFeeDefaults(originatorId: string, documents: readonly string[]): Promise<Map<string, FeeDefaults>> {
    const found = new Map<string, FeeDefaults>();
    const missing: string[] = [];
    for (const document of new Set(documents)) {
      const hit = this.payerFees.peek(originatorId, document);
      if (!hit) missing.push(document);
      else if (hit.value) found.set(document, hit.value);
    }
    if (missing.length === 0) return found;
    const epoch = this.state.epoch;
    const loaded = await new PoliciesRepository(this.db, originatorId).payerFeeDefaults(missing);
    for (const document of missing) {
      const defaults = loaded.get(document) ?? null;
      this.payerFees.store(originatorId, document, defaults, epoch);
      if (defaults) found.set(document, defaults);
    }
    return found;
  }

  /** One page of the originator's offered products. */
  productPage(originatorId: string, limit: number, offset: number): Promise<{ items: Product[]; total: number }> {
    return this.products.get(originatorId, `${limit}:${offset}`, () => new ProductsRepository(this.db, originatorId).list(limit, offset));
  }

  /** The operation's read as `render` writes it for the originator; a refusal (not found) is not kept. */
  operationRead(originatorId: string, operationId: string, render: () => Promise<Buffer>): Promise<Buffer> {
    return this.operations.get(operationId, originatorId, render);
  }

  /** The reads of `operationIds`, in their order, rendered by `render` when not kept (the list route: a page's operations mostly stay as they were). */
  operationReads(originatorId: string, operationIds: readonly string[], render: (ids: string[]) => Promise<Map<string, Buffer>>): Promise<Buffer[]> {
    return this.operations.getEach(operationIds, (id) => id, () => originatorId, render);
  }

  /**
   * The envelopes of the originator's events `eventIds`, in their order, the ones not kept
   * rendered by one call of `render` (`GET /v1/events`). An event never changes once recorded, so
   * nothing invalidates them; the list's own query decides which are still kept (30 days).
   */
  eventEnvelopes(originatorId: string, eventIds: readonly string[], render: (ids: string[]) => Promise<Map<string, Buffer>>): Promise<Buffer[]> {
    return this.events.getEach(eventIds, () => originatorId, (id) => id, render);
  }

  /**
   * The body of a page of `GET /v1/events` whose content `key` names within `slot` (its ids as
   * listed, within a page size and direction): the body last assembled for this originator and slot
   * if it had the same key, else the one `assemble` makes, kept in its place. Envelopes never
   * change, so the same ids make the same bytes; a poller whose page has not moved gets it without
   * a lookup per event or a copy of the page. Which ids are on the page is still the list's own
   * query, every request.
   */
  async eventPage(originatorId: string, slot: string, key: string, assemble: () => Promise<Buffer>): Promise<Buffer> {
    const kept = this.eventPages.peek(originatorId, slot);
    if (kept?.value.key === key) return kept.value.body;
    const epoch = this.state.epoch;
    const body = await assemble();
    this.eventPages.store(originatorId, slot, { key, body }, epoch);
    return body;
  }
}
