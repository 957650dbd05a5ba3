import { expect } from 'chai';
import { v7 as uuidv7 } from 'uuid';
import { Money } from '../../domain/money';
import type { LimitOrigin } from '../../domain/limits';
import type { PolicySettings } from '../../db/repositories/policies';
import { patientApi, sharedApi, testDb } from '../support/stack';
import { ApiClient } from '../support/http';
import { cnpj, formatCnpj } from '../support/documents';
import { buildOperationsIntegrator, createDirect } from '../support/operations';
import { eventually } from '../support/webhooks';
import { bodyOf, created, refused, setOwnLimit } from '../support/operation-checks';

const ENTITY_LEVELS = ['assignor_link', 'payer_link', 'assignor_default', 'payer_default'];

/** Contract "Credit limit engine" and "Limit codes" on POST /v1/operations/direct. */
describe('POST /v1/operations/direct: credit limits', () => {
  let client: ApiClient;
  before(async () => { client = new ApiClient((await sharedApi()).url); });

  /** A fresh originator under `policy`, one assignor and one payer document, and a body maker for them. */
  async function scenario(policy: Partial<PolicySettings>) {
    const integrator = await buildOperationsIntegrator(client, policy);
    const parties = { assignor: cnpj(), payer: cnpj() };
    const body = (value: string, item: Record<string, unknown> = {}) => bodyOf(value, { cnpj: parties.assignor }, { payer_document: parties.payer, ...item });
    return { ...integrator, parties, body };
  }

  describe('per-operation value', () => {
    it('refuses above the policy maximum with LIMIT_MAX_OPERATION_VALUE from policy_per_operation, and accepts exactly the maximum', async () => {
      const { token, body } = await scenario({ maxOperationValueBrl: Money.of('20000.00') });
      const detail = await refused(client, token, body('20000.01'), 403);
      expect(detail).to.deep.equal({ code: 'LIMIT_MAX_OPERATION_VALUE', source: 'policy_per_operation', max_allowed_brl: '20000.00', requested_brl: '20000.01', message: detail.message });
      expect(detail.message).to.be.a('string').and.not.equal('');
      await created(client, token, body('20000.00'));
    });

    it('refuses below the policy minimum with LIMIT_MIN_OPERATION_VALUE from policy_per_operation, and accepts exactly the minimum', async () => {
      const { token, body } = await scenario({ minOperationValueBrl: Money.of('1000.00') });
      const detail = await refused(client, token, body('999.99'), 403);
      expect(detail).to.include({ code: 'LIMIT_MIN_OPERATION_VALUE', source: 'policy_per_operation', min_allowed_brl: '1000.00', requested_brl: '999.99' });
      await created(client, token, body('1000.00'));
    });

    it('is evaluated before the configuration family and before entity locks', async () => {
      for (const policy of [{ aggregateLimitBrl: null }, { assignorDefaultLimitBrl: Money.ZERO }]) {
        const { token, body } = await scenario({ maxOperationValueBrl: Money.of('5000.00'), ...policy });
        expect((await refused(client, token, body('5000.01'), 403)).code).to.equal('LIMIT_MAX_OPERATION_VALUE');
      }
    });
  });

  describe('configuration family (no source, no max_allowed_brl)', () => {
    it('refuses with LIMIT_CONFIG_MISSING when no aggregate limit is configured, the same on a retry', async () => {
      const { token, body } = await scenario({ aggregateLimitBrl: null });
      const detail = await refused(client, token, body('1000.00'), 403);
      expect(detail).to.deep.equal({ code: 'LIMIT_CONFIG_MISSING', configured_levels: ['assignor_default', 'payer_default'], entity_levels_required: ENTITY_LEVELS, message: detail.message });
      expect(await refused(client, token, body('1000.00'), 403)).to.deep.equal(detail);
    });

    it('refuses with LIMIT_ENTITY_CONFIG_MISSING when an aggregate exists but no per-entity limit applies', async () => {
      const { token, body } = await scenario({ assignorDefaultLimitBrl: null, payerDefaultLimitBrl: null });
      const detail = await refused(client, token, body('1000.00'), 403);
      expect(detail).to.deep.equal({ code: 'LIMIT_ENTITY_CONFIG_MISSING', configured_levels: ['aggregate'], entity_levels_required: ENTITY_LEVELS, message: detail.message });
    });

    it('reports the configuration defect before any exposure refusal', async () => {
      const blockedButUnconfigured = await scenario({ aggregateLimitBrl: null, assignorDefaultLimitBrl: Money.ZERO });
      expect((await refused(client, blockedButUnconfigured.token, blockedButUnconfigured.body('100.00'), 403)).code).to.equal('LIMIT_CONFIG_MISSING');
      const anchoredWithoutNumbers = await scenario({ riskAnchoring: 'assignor', assignorDefaultLimitBrl: null, payerDefaultLimitBrl: null });
      expect((await refused(client, anchoredWithoutNumbers.token, anchoredWithoutNumbers.body('100.00'), 403)).code).to.equal('LIMIT_ENTITY_CONFIG_MISSING');
    });

    it('is satisfied by an entity\'s own limit alone, which also opens the anchored side', async () => {
      const { token, originatorId, parties, body } = await scenario({ riskAnchoring: 'assignor', assignorDefaultLimitBrl: null, payerDefaultLimitBrl: null });
      const registered = await client.post('/v1/assignors', { name: 'Limitada Ltda', type: 'J', cnpj: parties.assignor, email: 'l@example.com' }, { token });
      expect(registered.status, registered.text).to.equal(201);
      await setOwnLimit('assignors', originatorId, parties.assignor, '50000.00');
      await created(client, token, body('10000.00'));
    });
  });

  describe('LIMIT_AGGREGATE_EXPOSURE by limit_origin', () => {
    interface Case { side: 'assignor' | 'payer'; origin: LimitOrigin; source: string; policy: Partial<PolicySettings>; limit: string; own?: string; refused: string; fits?: string }
    const defaultOf = (side: Case['side'], value: Money | null): Partial<PolicySettings> =>
      (side === 'assignor' ? { assignorDefaultLimitBrl: value } : { payerDefaultLimitBrl: value });
    const cases: Case[] = (['assignor', 'payer'] as const).flatMap((side): Case[] => [
      // 10,000.00 already open for the entity in the first four
      { side, origin: 'configured', source: `policy_${side}_default`, policy: defaultOf(side, Money.of('15000.00')), limit: '15000.00', refused: '5000.01', fits: '5000.00' },
      { side, origin: 'entity_override', source: 'entity_link', policy: defaultOf(side, Money.of('15000.00')), own: '30000.00', limit: '30000.00', refused: '20000.01', fits: '20000.00' },
      { side, origin: 'entity_override', source: 'entity_link', policy: defaultOf(side, Money.of('15000.00')), own: '12000.00', limit: '12000.00', refused: '2000.01', fits: '2000.00' },
      { side, origin: 'entity_override', source: 'entity_link', policy: defaultOf(side, Money.of('15000.00')), own: '0', limit: '0.00', refused: '100.00' },
      // nothing open: the entity is locked from its first operation
      { side, origin: 'anchored_side_closed', source: 'policy_anchoring', policy: { riskAnchoring: side, ...defaultOf(side, null) }, limit: '0', refused: '100.00' },
      { side, origin: 'side_default_zero', source: `policy_${side}_default`, policy: defaultOf(side, Money.ZERO), limit: '0', refused: '100.00' },
    ]);

    for (const c of cases) {
      const title = `${c.side} ${c.origin}${c.own ? ` (own limit ${c.own})` : ''}: refused at ${c.refused} with limit_brl "${c.limit}"${c.fits ? `, ${c.fits} fits` : ''}`;
      it(title, async () => {
        const { token, originatorId, parties, body } = await scenario(c.policy);
        const exposed = c.origin === 'configured' || c.origin === 'entity_override';
        if (exposed) await created(client, token, body('10000.00'));
        if (c.own) await setOwnLimit(c.side === 'assignor' ? 'assignors' : 'payers', originatorId, parties[c.side], c.own);
        const detail = await refused(client, token, body(c.refused), 403);
        expect(detail).to.deep.equal({
          code: 'LIMIT_AGGREGATE_EXPOSURE', source: c.source, scope: { type: c.side, id: detail.scope.id, document: parties[c.side] },
          limit_brl: c.limit, limit_origin: c.origin, open_exposure_brl: exposed ? '10000.00' : '0.00', requested_brl: c.refused, message: detail.message,
        });
        const entity = await testDb()(c.side === 'assignor' ? 'assignors' : 'payers').where({ originator_id: originatorId, document: parties[c.side] }).first();
        if (exposed) {
          expect(detail.scope.id).to.equal(entity.id);
        } else {
          // First seen in the refused request: its row went with the refusal, so there is no id to name.
          expect(entity).to.equal(undefined);
          expect(detail.scope.id).to.equal(null);
        }
        if (c.fits) await created(client, token, body(c.fits));
      });
    }

    it('refuses above the originator-wide aggregate ceiling with scope originator', async () => {
      const { token } = await scenario({ aggregateLimitBrl: Money.of('15000.00') });
      await created(client, token, bodyOf('10000.00'));
      const detail = await refused(client, token, bodyOf('10000.00'), 403);
      expect(detail).to.deep.equal({
        code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'policy_aggregate', scope: { type: 'originator' }, limit_brl: '15000.00', limit_origin: 'configured',
        open_exposure_brl: '10000.00', requested_brl: '10000.00', message: detail.message,
      });
    });

    it('puts no limit on the non-anchored side when it has no number', async () => {
      const { token, body } = await scenario({ riskAnchoring: 'assignor', payerDefaultLimitBrl: null });
      await created(client, token, body('600000.00'));
    });
  });

  describe('payer exposure', () => {
    it('accumulates by payer document across operations of different assignors: the second is refused once the sum exceeds the limit', async () => {
      const { token, originatorId } = await scenario({ payerDefaultLimitBrl: Money.of('15000.00') });
      const payer = cnpj();
      const first = await created(client, token, bodyOf('10000.00', {}, { payer_document: payer }));
      const detail = await refused(client, token, bodyOf('10000.00', {}, { payer_document: formatCnpj(payer) }), 403);
      const row = await testDb()('payers').where({ originator_id: originatorId, document: payer }).first();
      expect(detail).to.include({ code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'policy_payer_default', limit_brl: '15000.00', limit_origin: 'configured', open_exposure_brl: '10000.00', requested_brl: '10000.00' });
      expect(detail.scope).to.deep.equal({ type: 'payer', id: row.id, document: payer });
      const third = await created(client, token, bodyOf('5000.00', {}, { payer_document: payer }));
      expect(third.assignor_id).to.not.equal(first.assignor_id);
    });

    it('measures requested_net_future_value, not the NFV, and sums the receivables of one payer in one operation', async () => {
      const { token, body } = await scenario({ payerDefaultLimitBrl: Money.of('15000.00') });
      await created(client, token, body('20000.00', { requested_net_future_value: '10000.00' }));
      await created(client, token, body('5000.00'));
      const twoOfOnePayer = { ...body('100.00'), receivables: [...(body('100.00').receivables as unknown[]), ...(body('100.00').receivables as unknown[])] };
      expect(await refused(client, token, twoOfOnePayer, 403)).to.include({ code: 'LIMIT_AGGREGATE_EXPOSURE', open_exposure_brl: '15000.00', requested_brl: '200.00' });
    });
  });

  describe('concurrency: checks and the write are one transaction under locks', () => {
    // Creations queue on locks here for longer than the default budget lets a request wait on one.
    let patient: ApiClient;
    before(async () => { patient = new ApiClient((await patientApi()).url); });
    const waitingOnLocks = async (count: number) => eventually(async () => {
      const { rows } = await testDb().raw("select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'");
      expect(rows[0].n).to.be.at.least(count);
    });

    it('lets exactly one of two concurrent operations through a payer limit that fits only one: one 201 and one 403', async () => {
      const { token, originatorId } = await scenario({ payerDefaultLimitBrl: Money.of('15000.00') });
      const payer = { id: uuidv7(), document: cnpj() };
      await testDb()('payers').insert({ ...payer, originator_id: originatorId, name: 'Shared Payer' });
      // Holding the payer row makes both requests queue on it (to lock it, or to reference it) before either checks the limit.
      const blocker = await testDb().transaction();
      await blocker('payers').where({ id: payer.id }).forUpdate();
      const pending = Promise.all([1, 2].map(() => createDirect(patient, token, bodyOf('10000.00', {}, { payer_document: payer.document }))));
      await waitingOnLocks(2);
      await blocker.commit();
      const answers = await pending;
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 403]);
      expect(answers.find((a) => a.status === 403)!.body.detail).to.include({ code: 'LIMIT_AGGREGATE_EXPOSURE', open_exposure_brl: '10000.00' });
      const [{ open }] = await testDb()('titles').where({ payer_id: payer.id }).sum({ open: 'outstanding_balance' });
      expect(open).to.equal('10000.00');
    });

    it('lets exactly as many of six concurrent operations through as the assignor limit holds', async () => {
      const { token, body } = await scenario({ assignorDefaultLimitBrl: Money.of('35000.00') });
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createDirect(patient, token, body('10000.00', { payer_document: cnpj() }))));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 201, 201, 403, 403, 403]);
    });

    it('lets exactly as many of six concurrent operations of disjoint assignors and payers through as the originator ceiling holds', async () => {
      const { token } = await scenario({ aggregateLimitBrl: Money.of('35000.00') });
      const answers = await Promise.all([1, 2, 3, 4, 5, 6].map(() => createDirect(patient, token, bodyOf('10000.00'))));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([201, 201, 201, 403, 403, 403]);
      const refusals = answers.filter((a) => a.status === 403).map((a) => [a.body.detail.scope, a.body.detail.open_exposure_brl]);
      expect(refusals).to.deep.equal(Array(3).fill([{ type: 'originator' }, '30000.00']));
    });
  });
});
