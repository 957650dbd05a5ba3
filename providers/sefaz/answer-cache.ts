const HOUR_MS = 3_600_000;

interface KeyRecord<T> {
  /** When SEFAZ was asked about the key within the last hour. */
  asked: number[];
  last: T | null;
  restsUntil: number;
}

/**
 * Each key's last answer and when it was asked, so that no key is asked more than `perHour` times
 * in an hour (SEFAZ answers 656, consumo indevido, to a key asked too often, and then refuses the
 * certificate for a while). Past the limit, or while a key rests after a 656, the last answer is
 * given again, marked `cached`; without one, the caller is told to wait. Per process; a key
 * neither asked within the hour nor resting is forgotten.
 */
export class AnswerCache<T extends { cached: boolean }> {
  private readonly keys = new Map<string, KeyRecord<T>>();
  private sweptAt = 0;

  constructor(private readonly limits: { perHour: number; restMs: number }, private readonly now: () => number = Date.now) {}

  private record(key: string): KeyRecord<T> {
    const now = this.now();
    let record = this.keys.get(key);
    if (!record) {
      record = { asked: [], last: null, restsUntil: 0 };
      this.keys.set(key, record);
    }
    record.asked = record.asked.filter((at) => at > now - HOUR_MS);
    return record;
  }

  /** The answer to give instead of asking SEFAZ now (null inside: none to give, wait), or null when SEFAZ may be asked. */
  instead(key: string): { answer: T | null } | null {
    const record = this.record(key);
    if (record.restsUntil <= this.now() && record.asked.length < this.limits.perHour) return null;
    return { answer: record.last && { ...record.last, cached: true } };
  }

  /** A request to SEFAZ about `key` is being made. */
  asking(key: string): void {
    this.forgetIdle();
    this.record(key).asked.push(this.now());
  }

  /** SEFAZ's answer; `throttled` when it was a 656, which rests the key and keeps the answer before it. */
  answered(key: string, answer: T, throttled: boolean): void {
    const record = this.record(key);
    if (throttled) record.restsUntil = this.now() + this.limits.restMs;
    else record.last = answer;
  }

  private forgetIdle(): void {
    const now = this.now();
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const [key, record] of this.keys) {
      if (record.restsUntil <= now && record.asked.every((at) => at <= now - HOUR_MS)) this.keys.delete(key);
    }
  }
}
