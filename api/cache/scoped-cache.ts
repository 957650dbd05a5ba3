import { cacheRequests } from '../../platform/telemetry/metrics';

interface Entry<V> {
  value: V;
  expires: number;
  weight: number;
}

/** What every cache of one process shares: whether invalidations are being heard, and a counter of them. */
export class CacheState {
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  epoch = 0;
  /** False while no LISTEN connection is in place: every read goes to the database and nothing is stored. */
  live = false;

  constructor(readonly ttlMs: number, readonly now: () => number = Date.now) {}
}


/**
 * Values grouped by scope (an originator, a credential, a user), so that an invalidation drops one
 * scope at once. A value lives until its scope is invalidated or its lifetime runs out.
 */
export class ScopedCache<V> {
  private readonly scopes = new Map<string, Map<string, Entry<V>>>();
  private size = 0;
  private readonly hits: ReturnType<typeof cacheRequests.labels>;
  private readonly misses: ReturnType<typeof cacheRequests.labels>;

  /**
   * Past `capacity` the cache starts over: bounded memory whatever the traffic. Capacity counts
   * entries, or what `weigh` says an entry is worth (the characters of a rendered text). `name`
   * labels its hits and misses.
   */
  constructor(private readonly state: CacheState, name: string, private readonly capacity = 50_000, private readonly weigh: (value: V) => number = () => 1) {
    this.hits = cacheRequests.labels(name, 'hit');
    this.misses = cacheRequests.labels(name, 'miss');
  }

  /** A read, counted as a hit or a miss. */
  peek(scope: string, key: string): { value: V } | undefined {
    const hit = this.live(scope, key, this.state.now());
    (hit ? this.hits : this.misses).inc();
    return hit;
  }

  private live(scope: string, key: string, now: number): Entry<V> | undefined {
    const entry = this.scopes.get(scope)?.get(key);
    return entry && entry.expires > now ? entry : undefined;
  }

  /** Stores what a load begun at `epoch` read, unless an invalidation came in between. */
  store(scope: string, key: string, value: V, epoch: number): void {
    if (!this.state.live || epoch !== this.state.epoch) return;
    const weight = this.weigh(value);
    if (this.size + weight > this.capacity) this.clear();
    let entries = this.scopes.get(scope);
    if (!entries) this.scopes.set(scope, (entries = new Map()));
    this.size += weight - (entries.get(key)?.weight ?? 0);
    entries.set(key, { value, expires: this.state.now() + this.state.ttlMs, weight });
  }

  async get(scope: string, key: string, load: () => Promise<V>): Promise<V> {
    const hit = this.peek(scope, key);
    if (hit) return hit.value;
    const epoch = this.state.epoch;
    const value = await load();
    this.store(scope, key, value, epoch);
    return value;
  }

  /**
   * The values of `ids`, in their order, those not kept loaded by one call of `load` (a page of
   * renderings); `scopeOf` and `keyOf` name where an id's value lives (two functions, not a pair:
   * a pair allocated per id showed in the events list's profile). An id `load` does not return is
   * left out.
   */
  async getEach(ids: readonly string[], scopeOf: (id: string) => string, keyOf: (id: string) => string, load: (missing: string[]) => Promise<Map<string, V>>): Promise<V[]> {
    const now = this.state.now();
    const kept = ids.map((id) => this.live(scopeOf(id), keyOf(id), now)?.value);
    const missing = ids.filter((_id, index) => kept[index] === undefined);
    // Counted once per page, not per item: a hundred counter increments per page showed in the profile.
    this.hits.inc(ids.length - missing.length);
    this.misses.inc(missing.length);
    if (missing.length === 0) return kept as V[];
    const epoch = this.state.epoch;
    const loaded = await load(missing);
    for (const [id, value] of loaded) this.store(scopeOf(id), keyOf(id), value, epoch);
    return ids.map((id, index) => kept[index] ?? loaded.get(id)).filter((value): value is V => value !== undefined);
  }

  drop(scope: string): void {
    for (const entry of this.scopes.get(scope)?.values() ?? []) this.size -= entry.weight;
    this.scopes.delete(scope);
  }

  clear(): void {
    this.scopes.clear();
    this.size = 0;
  }
}
