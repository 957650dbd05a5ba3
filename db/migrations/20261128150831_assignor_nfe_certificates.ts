import type { Knex } from 'knex';

/**
 * An assignor's delegated A1 certificate (PKCS#12) and its password, each sealed with the key ring
 * (`enc:v1:...`) like every secret at rest; beside them only what the read shows of it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('assignor_nfe_certificates', (t) => {
    t.uuid('assignor_id').primary().references('assignors.id').onDelete('CASCADE');
    t.uuid('originator_id').notNullable().references('originators.id');
    t.text('sealed_pfx').notNullable();
    t.text('sealed_passphrase').notNullable();
    t.text('subject').notNullable();
    t.text('serial').notNullable();
    t.timestamp('not_after', { useTz: true }).notNullable();
    t.timestamp('uploaded_at', { useTz: true }).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('assignor_nfe_certificates');
}
