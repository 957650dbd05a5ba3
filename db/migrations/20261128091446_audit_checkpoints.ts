import type { Knex } from 'knex';

/**
 * Signed heads of the audit chain: each names the last row it covers (`seq`, `hash`),
 * the row after the previous checkpoint's it starts from (`from_seq`), and the originators whose
 * operations or titles those rows are about, who receive it as `audit.checkpoint`. The copies that
 * count are outside Postgres (the integrators' events, the checkpoint log); this table serves
 * `GET /v1/audit/checkpoints` and, like the trail, refuses UPDATE and DELETE.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create table audit_checkpoints (
    id uuid primary key,
    seq bigint not null,
    hash text not null,
    from_seq bigint not null,
    signed_at timestamptz not null,
    kid text not null,
    jws text not null,
    originator_ids uuid[] not null
  )`);
  await knex.raw('create index audit_checkpoints_originators on audit_checkpoints using gin (originator_ids)');
  await knex.raw('create index audit_checkpoints_signed on audit_checkpoints (signed_at desc, id)');
  await knex.raw(`create trigger audit_checkpoints_no_change before update or delete on audit_checkpoints
    for each row execute function audit_events_append_only()`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop table audit_checkpoints');
}
