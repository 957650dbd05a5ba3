import type { Knex } from 'knex';

/**
 * Issue #31: payments collected by PIX. `received_brl` is what the payer sent, `amount` what
 * reduced the balance, `late_income_brl` the fine and interest (the originator's income, not
 * principal) and `refunded_brl` the excess returned; received = amount + late income + refunded.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`alter table title_payments
    drop constraint title_payments_channel_check,
    add constraint title_payments_channel_check check (channel in ('BACKOFFICE', 'SANDBOX', 'PIX')),
    add column received_brl numeric(18, 2),
    add column late_income_brl numeric(18, 2) not null default 0,
    add column refunded_brl numeric(18, 2) not null default 0`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`alter table title_payments
    drop column received_brl, drop column late_income_brl, drop column refunded_brl,
    drop constraint title_payments_channel_check,
    add constraint title_payments_channel_check check (channel in ('BACKOFFICE', 'SANDBOX'))`);
}
