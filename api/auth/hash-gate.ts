import { Unavailable } from '../../domain/errors';

/**
 * At most `concurrency` slow hashes at once (a user password's scrypt takes 128 MiB and a core for
 * a good part of a second), the rest waiting their turn; past `queue` waiting, a login is turned
 * away at once with the contract's 503 rather than piling up memory and latency.
 */
export class HashGate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency: number, private readonly queue: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.queue) throw new Unavailable('authentication_temporarily_unavailable');
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, or is given back.
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
