import type { Knex } from 'knex';

export type SigningKeyState = 'active' | 'verify-only' | 'retired';

export interface SigningKeyRow {
  kid: string;
  /** The PKCS#8 PEM sealed with the payload key ring (`enc:v1:...`); never stored in clear. */
  privateSealed: string;
  state: SigningKeyState;
  /** A `verify-only` key verifies until then (the last token it signed has expired). */
  verifyUntil: Date | null;
  createdAt: Date;
}

interface Row {
  kid: string;
  private_sealed: string;
  state: SigningKeyState;
  verify_until: Date | null;
  created_at: Date;
}

const toRow = (row: Row): SigningKeyRow => ({
  kid: row.kid, privateSealed: row.private_sealed, state: row.state, verifyUntil: row.verify_until, createdAt: row.created_at,
});

/** The RS256 signing keys every api process shares (DESIGN.md §8). */
export class SigningKeysRepository {
  constructor(private readonly db: Knex) {}

  /** Serialises the processes that create, import or rotate keys, until the transaction ends. */
  async lockForChange(): Promise<void> {
    await this.db.raw('select pg_advisory_xact_lock(hashtext(?))', ['signing_keys']);
  }

  /** Newest first. */
  async all(): Promise<SigningKeyRow[]> {
    const rows: Row[] = await this.db('signing_keys').select('kid', 'private_sealed', 'state', 'verify_until', 'created_at').orderBy('created_at', 'desc');
    return rows.map(toRow);
  }

  /** Every key's public half, retired ones included: a checkpoint signed long ago still verifies. */
  async publicKeys(): Promise<{ kid: string; publicPem: string }[]> {
    const rows: { kid: string; public_pem: string }[] = await this.db('signing_keys').select('kid', 'public_pem');
    return rows.map((row) => ({ kid: row.kid, publicPem: row.public_pem }));
  }

  async insert(key: { kid: string; privateSealed: string; publicPem: string; state: SigningKeyState; verifyUntil?: Date | null }): Promise<void> {
    await this.db('signing_keys').insert({
      kid: key.kid, private_sealed: key.privateSealed, public_pem: key.publicPem, state: key.state, verify_until: key.verifyUntil ?? null,
    });
  }

  /** The active keys stop signing and keep verifying until `until`. */
  async demoteActive(until: Date): Promise<string[]> {
    const rows: { kid: string }[] = await this.db('signing_keys').where({ state: 'active' }).update({ state: 'verify-only', verify_until: until }).returning('kid');
    return rows.map((row) => row.kid);
  }

  async retire(kids: string[], at: Date): Promise<void> {
    if (kids.length > 0) await this.db('signing_keys').whereIn('kid', kids).update({ state: 'retired', retired_at: at, verify_until: null });
  }

  /** Verify-only keys whose last token has expired. */
  async expiredVerifyOnly(now: Date): Promise<string[]> {
    const rows: { kid: string }[] = await this.db('signing_keys').where({ state: 'verify-only' }).andWhere('verify_until', '<=', now).select('kid');
    return rows.map((row) => row.kid);
  }
}
