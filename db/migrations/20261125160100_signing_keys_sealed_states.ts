import type { Knex } from 'knex';
import { loadConfig } from '../../platform/config/config';
import { CipherRing } from '../../platform/crypto/cipher-ring';

/**
 * Issue #30: the RS256 private keys are sealed with the payload key ring in every environment
 * (rows written before are sealed here, with the ring the migrating process was started with),
 * and each key has a state: `active` signs, `verify-only` still verifies the tokens it signed until
 * `verify_until`, `retired` verifies nothing. Every api process hears of a change at once through
 * the `reference_changed` channel, as its caches do.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table signing_keys
    add column private_sealed text,
    add column state text not null default 'active' check (state in ('active', 'verify-only', 'retired')),
    add column verify_until timestamptz`);
  const rows: { kid: string; private_pem: string; retired_at: Date | null }[] = await knex('signing_keys').select('kid', 'private_pem', 'retired_at');
  // Only rows need the key ring: a database without keys migrates without the service's configuration.
  const ring = rows.length > 0 ? new CipherRing(loadConfig().payloadKeys) : null;
  for (const row of rows) {
    await knex('signing_keys').where({ kid: row.kid })
      .update({ private_sealed: ring!.sealText(row.private_pem), state: row.retired_at ? 'retired' : 'active' });
  }
  await knex.raw('alter table signing_keys alter column private_sealed set not null, drop column private_pem');
  await knex.raw(`create trigger signing_keys_reference_changed after insert or update or delete on signing_keys
    for each row execute function notify_reference_changed('kid')`);
  await knex.raw(`create trigger signing_keys_reference_truncated after truncate on signing_keys
    for each statement execute function notify_reference_changed('kid')`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop trigger signing_keys_reference_truncated on signing_keys');
  await knex.raw('drop trigger signing_keys_reference_changed on signing_keys');
  await knex.raw('alter table signing_keys add column private_pem text');
  const rows: { kid: string; private_sealed: string; state: string }[] = await knex('signing_keys').select('kid', 'private_sealed', 'state');
  const ring = rows.length > 0 ? new CipherRing(loadConfig().payloadKeys) : null;
  for (const row of rows) {
    await knex('signing_keys').where({ kid: row.kid }).update({
      private_pem: ring!.openText(row.private_sealed), retired_at: row.state === 'retired' ? knex.fn.now() : null,
    });
  }
  await knex.raw('alter table signing_keys alter column private_pem set not null, drop column private_sealed, drop column state, drop column verify_until');
}
