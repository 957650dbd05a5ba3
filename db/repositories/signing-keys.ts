import type { Knex } from 'knex';

export interface SigningKeyRow {
  kid: string;
  privatePem: string;
  retiredAt: Date | null;
}

/** The RS256 signing keys every api process shares when none is configured (DESIGN.md §8). */
export class SigningKeysRepository {
  constructor(private readonly db: Knex) {}

  /** Serialises the processes that may create the first key at the same time, until the transaction ends. */
  async lockForCreation(): Promise<void> {
    await this.db.raw('select pg_advisory_xact_lock(hashtext(?))', ['signing_keys']);
  }

  /** Newest first. */
  async all(): Promise<SigningKeyRow[]> {
    const rows: { kid: string; private_pem: string; retired_at: Date | null }[] = await this.db('signing_keys')
      .select('kid', 'private_pem', 'retired_at').orderBy('created_at', 'desc');
    return rows.map((row) => ({ kid: row.kid, privatePem: row.private_pem, retiredAt: row.retired_at }));
  }

  async insert(key: { kid: string; privatePem: string; publicPem: string }): Promise<void> {
    await this.db('signing_keys').insert({ kid: key.kid, private_pem: key.privatePem, public_pem: key.publicPem });
  }
}
