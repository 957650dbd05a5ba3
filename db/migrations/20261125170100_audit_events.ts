import type { Knex } from 'knex';

/**
 * Issue #29: the audit trail, append-only and tamper-evident. Each row's hash is the SHA-256 over
 * the row and the previous row's hash (domain/audit-chain.ts); `seq` is the chain's order. A trigger
 * refuses UPDATE, DELETE and TRUNCATE whoever asks (an owner's grants cannot be taken away from
 * it), and the grants take them from every other role.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table audit_events (
    seq bigint generated always as identity primary key,
    id uuid not null unique,
    occurred_at timestamptz not null,
    actor jsonb not null,
    action text not null,
    target_type text,
    target_id text,
    ip text,
    user_agent text,
    request_id text,
    before jsonb,
    after jsonb,
    prev_hash text not null,
    hash text not null unique
  )`);
  await knex.raw('create index audit_events_target on audit_events (target_id, seq)');
  await knex.raw(`create index audit_events_actor on audit_events ((actor->>'id'), seq)`);
  await knex.raw('create index audit_events_action on audit_events (action, seq)');
  await knex.raw(`create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % refused', tg_op using errcode = 'insufficient_privilege';
    end $$`);
  await knex.raw(`create trigger audit_events_no_change before update or delete on audit_events
    for each row execute function audit_events_append_only()`);
  await knex.raw(`create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`);
  await knex.raw('revoke update, delete, truncate on audit_events from public');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table audit_events');
  await knex.raw('drop function audit_events_append_only()');
}
