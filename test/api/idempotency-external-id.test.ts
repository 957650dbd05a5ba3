import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createOnceByExternalId, ExternalIdClaim } from '../../db/repositories/external-id';
import { AppError } from '../../domain/errors';
import { testDb } from '../support/stack';
import { untilLockWait } from '../support/idempotency';

/**
 * The `external_id` helper against real Postgres, before the money routes that will use it
 * exist: each `create` writes one row of a ledger table made for this file, so effects count.
 */
describe('external_id deduplication', () => {
  before(async () => {
    await testDb().raw('create table external_id_test_ledger (id serial primary key, scope text not null, amount text not null)');
  });
  after(async () => {
    await testDb().raw('drop table external_id_test_ledger');
  });

  const payment = (overrides: Partial<ExternalIdClaim> = {}): ExternalIdClaim => {
    const externalId = overrides.externalId ?? `pay-${randomUUID()}`;
    return {
      grain: 'assignor_payable_payment', scope: randomUUID(), externalId,
      request: { source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '150.00', external_id: externalId },
      ...overrides,
    };
  };

  const record = async (trx: Knex.Transaction, claim: ExternalIdClaim) => {
    const [row] = await trx('external_id_test_ledger').insert({ scope: claim.scope, amount: claim.request.paid_amount_brl }).returning(['id', 'amount']);
    return { id: row.id as number, remaining: '850.00' };
  };
  const run = (claim: ExternalIdClaim) => testDb().transaction((trx) => createOnceByExternalId(trx, claim, (sp) => record(sp, claim)));
  const effects = async (scope: string) => (await testDb()('external_id_test_ledger').where({ scope })).length;

  async function refusal(claim: ExternalIdClaim): Promise<AppError> {
    const err = await run(claim).then(() => null, (e: unknown) => e);
    expect(err).to.be.instanceOf(AppError);
    return err as AppError;
  }

  it('creates once and answers a retry with the original record and idempotent_replay true', async () => {
    const claim = payment();
    const first = await run(claim);
    const retry = await run({ ...claim, request: { ...claim.request } });
    expect(first).to.include({ idempotent_replay: false, remaining: '850.00' });
    expect(retry).to.deep.equal({ ...first, idempotent_replay: true });
    expect(await effects(claim.scope)).to.equal(1);
  });

  it('refuses the same external_id with another body: 409 naming the diverging fields', async () => {
    const claim = payment();
    await run(claim);
    const err = await refusal({ ...claim, request: { ...claim.request, paid_amount_brl: '150.0', note: 'x' } });
    expect(err.status).to.equal(409);
    expect(err.toBody()).to.deep.equal({
      detail: { code: 'external_id_reused_with_different_body', message: `external_id ${claim.externalId} was already used with a different body`, fields: ['note', 'paid_amount_brl'] },
    });
    expect(await effects(claim.scope)).to.equal(1);
  });

  it('compares values byte for byte: a number is not its string, nor is a differently cased id the same id', async () => {
    const claim = payment({ externalId: 'Pay-ABC' });
    await run(claim);
    expect((await refusal({ ...claim, request: { ...claim.request, paid_amount_brl: 150 } })).toBody().detail).to.include({ code: 'external_id_reused_with_different_body' });
    const cased = await run({ ...claim, externalId: 'pay-abc' });
    expect(cased.idempotent_replay).to.equal(false);
    expect(await effects(claim.scope)).to.equal(2);
  });

  it('keeps grains and scopes apart: the same external_id on another payable or another rule is new', async () => {
    const claim = payment();
    await run(claim);
    expect((await run({ ...claim, scope: randomUUID() })).idempotent_replay).to.equal(false);
    expect((await run({ ...claim, grain: 'discount_credit' })).idempotent_replay).to.equal(false);
  });

  it('leaves no claim behind when the creation fails, so the retry creates', async () => {
    const claim = payment();
    const failing = testDb().transaction((trx) => createOnceByExternalId(trx, claim, async () => { throw new Error('ledger down'); }));
    await failing.then(() => expect.fail('should have failed'), (err: Error) => expect(err.message).to.equal('ledger down'));
    expect((await run(claim)).idempotent_replay).to.equal(false);
    expect(await effects(claim.scope)).to.equal(1);
  });

  it('makes a concurrent retry wait for the first transaction and replay its record', async () => {
    const claim = payment();
    const first = await testDb().transaction();
    const original = await createOnceByExternalId(first, claim, (sp) => record(sp, claim));
    const retry = run(claim);
    await untilLockWait('insert into "external_id_records"');
    await first.commit();
    expect(await retry).to.deep.equal({ ...original, idempotent_replay: true });
    expect(await effects(claim.scope)).to.equal(1);
  });
});
