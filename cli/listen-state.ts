import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newWebhookSecret } from '../domain/webhook-signature';

/** The most event ids a listener remembers; older ones lie below every page it reads. */
const SEEN_KEPT = 10_000;

interface Stored {
  api_url: string;
  client_id: string;
  secret: string;
  seen: string[];
}

/**
 * What `listen` keeps between runs, in one local file: its signing secret (the same one every
 * run, so a receiver configured once keeps verifying) and the events it has forwarded (its
 * cursor: a restart forwards neither one twice nor skips one recorded meanwhile).
 */
export class ListenState {
  private constructor(private readonly file: string, private readonly stored: Stored, readonly fresh: boolean) {}

  /** The file's state for this api and client, or a new one (with a new secret) when there is none for them. */
  static open(file: string, apiUrl: string, clientId: string): ListenState {
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as Stored;
      if (stored.api_url === apiUrl && stored.client_id === clientId) return new ListenState(file, stored, false);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    return new ListenState(file, { api_url: apiUrl, client_id: clientId, secret: newWebhookSecret(), seen: [] }, true);
  }

  get secret(): string {
    return this.stored.secret;
  }

  seen(): Set<string> {
    return new Set(this.stored.seen);
  }

  /** Remembers `ids` and writes the file whole (a new file renamed over the old, so a crash never leaves half of one). */
  remember(ids: string[]): void {
    this.stored.seen = [...this.stored.seen, ...ids].slice(-SEEN_KEPT);
    mkdirSync(path.dirname(this.file), { recursive: true });
    writeFileSync(`${this.file}.tmp`, JSON.stringify(this.stored), { mode: 0o600 });
    renameSync(`${this.file}.tmp`, this.file);
  }
}
