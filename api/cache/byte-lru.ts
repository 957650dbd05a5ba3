/**
 * Values by key, bounded by what `weigh` says they are worth (the bytes of a rendering): past
 * `capacity`, the least recently used go first. A Map iterates in insertion order, so a read moves
 * its entry to the end and the first entry is always the one to drop. A value heavier than the
 * whole capacity is not kept (a capacity of 0 keeps nothing).
 */
export class ByteLru<V> {
  private readonly entries = new Map<string, V>();
  private size = 0;

  constructor(private readonly capacity: number, private readonly weigh: (value: V) => number) {}

  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    const replaced = this.entries.get(key);
    if (replaced !== undefined) {
      this.entries.delete(key);
      this.size -= this.weigh(replaced);
    }
    this.entries.set(key, value);
    this.size += weight;
    for (const [oldest, kept] of this.entries) {
      if (this.size <= this.capacity) break;
      this.entries.delete(oldest);
      this.size -= this.weigh(kept);
    }
  }
}
