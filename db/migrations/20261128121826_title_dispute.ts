import type { Knex } from 'knex';

/**
 * A title whose NF-e, re-checked daily after payout, was cancelled or disowned by its payer: why
 * (`nfe_cancelled`, `nfe_disowned_by_payer`), SEFAZ's answer, and when it was found. Set once; a
 * title is disputed at most once.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('titles', (t) => {
    t.text('dispute_reason');
    t.text('dispute_cstat');
    t.text('dispute_xmotivo');
    t.text('dispute_payer_event');
    t.timestamp('disputed_at', { useTz: true });
  });
  await knex.raw(`alter table titles add constraint titles_dispute check (
    (disputed_at is null and dispute_reason is null) or
    (disputed_at is not null and dispute_reason in ('nfe_cancelled', 'nfe_disowned_by_payer') and dispute_cstat is not null and dispute_xmotivo is not null))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('alter table titles drop constraint titles_dispute');
  await knex.schema.alterTable('titles', (t) => {
    for (const column of ['dispute_reason', 'dispute_cstat', 'dispute_xmotivo', 'dispute_payer_event', 'disputed_at']) t.dropColumn(column);
  });
}
