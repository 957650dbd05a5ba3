import type { Knex } from 'knex';

/** A payer's payment the escriturador reports (the boleto dinâmico paid to the holder) is its own channel. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table title_payments
    drop constraint title_payments_channel_check,
    add constraint title_payments_channel_check check (channel in ('BACKOFFICE', 'SANDBOX', 'PIX', 'REGISTRAR'))`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table title_payments
    drop constraint title_payments_channel_check,
    add constraint title_payments_channel_check check (channel in ('BACKOFFICE', 'SANDBOX', 'PIX'))`);
}
