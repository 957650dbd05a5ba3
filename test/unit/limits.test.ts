import { expect } from 'chai';
import { Forbidden } from '../../domain/errors';
import { Money } from '../../domain/money';
import { checkCreditLimits, requestedByPayer, type EntityExposure, type LimitCheckInput, type LimitPolicy } from '../../domain/limits';

const m = (value: string | number) => Money.of(value);

function buildPolicy(overrides: Partial<LimitPolicy> = {}): LimitPolicy {
  return {
    minOperationBrl: null, maxOperationBrl: null, aggregateCeilingBrl: m(1_000_000),
    assignorDefaultLimitBrl: m(100_000), payerDefaultLimitBrl: null, anchoring: 'both', ...overrides,
  };
}

function buildEntity(id: string, overrides: Partial<EntityExposure> = {}): EntityExposure {
  return { entityId: id, document: `doc-${id}`, ownLimitBrl: null, openExposureBrl: Money.ZERO, requestedBrl: m(1000), ...overrides };
}

/** One assignor and one payer by default; the operation total is the assignor's requested value. */
function buildInput(overrides: { policy?: Partial<LimitPolicy>; assignor?: Partial<EntityExposure>; payers?: EntityExposure[]; aggregateOpenExposureBrl?: Money } = {}): LimitCheckInput {
  const assignor = buildEntity('a1', overrides.assignor);
  return {
    policy: buildPolicy(overrides.policy), operationTotalBrl: assignor.requestedBrl, assignor,
    payers: overrides.payers ?? [buildEntity('p1')], aggregateOpenExposureBrl: overrides.aggregateOpenExposureBrl ?? Money.ZERO,
  };
}

function refusalOf(input: LimitCheckInput): Record<string, unknown> {
  try {
    checkCreditLimits(input);
  } catch (error) {
    expect(error).to.be.instanceOf(Forbidden);
    expect((error as Forbidden).status).to.equal(403);
    return (error as Forbidden).detail as Record<string, unknown>;
  }
  throw new Error('expected a 403 refusal, the operation was accepted');
}

const accepts = (input: LimitCheckInput) => expect(() => checkCreditLimits(input)).not.to.throw();

describe('credit limit engine', () => {
  describe('per-operation bounds', () => {
    it('refuses a total above the policy maximum with LIMIT_MAX_OPERATION_VALUE from policy_per_operation', () => {
      expect(refusalOf(buildInput({ policy: { maxOperationBrl: m(500) } }))).to.deep.equal({
        code: 'LIMIT_MAX_OPERATION_VALUE', source: 'policy_per_operation', max_allowed_brl: '500.00', requested_brl: '1000.00',
        message: 'Operation total 1000.00 BRL is above the policy maximum of 500.00 BRL per operation',
      });
    });

    it('refuses a total below the policy minimum with LIMIT_MIN_OPERATION_VALUE carrying min_allowed_brl', () => {
      expect(refusalOf(buildInput({ policy: { minOperationBrl: m(1500) } }))).to.deep.equal({
        code: 'LIMIT_MIN_OPERATION_VALUE', source: 'policy_per_operation', min_allowed_brl: '1500.00', requested_brl: '1000.00',
        message: 'Operation total 1000.00 BRL is below the policy minimum of 1500.00 BRL per operation',
      });
    });

    it('accepts a total exactly at the minimum and exactly at the maximum', () => {
      accepts(buildInput({ policy: { minOperationBrl: m(1000), maxOperationBrl: m(1000) } }));
    });

    it('reports the maximum first when a minimum above the maximum refuses every total', () => {
      expect(refusalOf(buildInput({ policy: { minOperationBrl: m(5000), maxOperationBrl: m(500) } })).code).to.equal('LIMIT_MAX_OPERATION_VALUE');
    });

    it('checks the per-operation ceiling before configuration defects and entity locks', () => {
      const input = buildInput({ policy: { maxOperationBrl: m(10), aggregateCeilingBrl: null, anchoring: 'assignor' }, assignor: { ownLimitBrl: Money.ZERO } });
      expect(refusalOf(input).code).to.equal('LIMIT_MAX_OPERATION_VALUE');
    });
  });

  describe('configuration family', () => {
    it('refuses with LIMIT_CONFIG_MISSING when no aggregate ceiling is configured, even with entity limits', () => {
      expect(refusalOf(buildInput({ policy: { aggregateCeilingBrl: null } }))).to.deep.equal({
        code: 'LIMIT_CONFIG_MISSING', configured_levels: ['assignor_default'],
        entity_levels_required: ['assignor_link', 'payer_link', 'assignor_default', 'payer_default'],
        message: 'No aggregate credit limit is configured for this originator; an operator must configure one before operations can be approved',
      });
    });

    it('reports LIMIT_CONFIG_MISSING before LIMIT_ENTITY_CONFIG_MISSING when both defects coexist', () => {
      const detail = refusalOf(buildInput({ policy: { aggregateCeilingBrl: null, assignorDefaultLimitBrl: null } }));
      expect(detail).to.include({ code: 'LIMIT_CONFIG_MISSING' });
      expect(detail.configured_levels).to.deep.equal([]);
    });

    it('refuses with LIMIT_ENTITY_CONFIG_MISSING when the aggregate ceiling alone is configured, without source or max_allowed_brl', () => {
      const detail = refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: null } }));
      expect(detail).to.deep.equal({
        code: 'LIMIT_ENTITY_CONFIG_MISSING', configured_levels: ['aggregate'],
        entity_levels_required: ['assignor_link', 'payer_link', 'assignor_default', 'payer_default'],
        message: 'No per-entity credit limit applies to this operation; an operator must configure an assignor or payer limit (own or policy default)',
      });
    });

    it('reports missing entity configuration rather than an anchored lock when no per-entity limit exists at all', () => {
      expect(refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: null, anchoring: 'payer' } })).code).to.equal('LIMIT_ENTITY_CONFIG_MISSING');
    });

    it('reports configuration defects before entity locks', () => {
      expect(refusalOf(buildInput({ policy: { aggregateCeilingBrl: null }, assignor: { ownLimitBrl: Money.ZERO } })).code).to.equal('LIMIT_CONFIG_MISSING');
    });

    it('lists every configured level, own limits included, in a fixed order', () => {
      const input = buildInput({
        policy: { aggregateCeilingBrl: null, payerDefaultLimitBrl: m(1) },
        assignor: { ownLimitBrl: m(5) }, payers: [buildEntity('p1'), buildEntity('p2', { ownLimitBrl: m(9) })],
      });
      expect(refusalOf(input).configured_levels).to.deep.equal(['assignor_link', 'payer_link', 'assignor_default', 'payer_default']);
    });

    const onlyOne: [string, Parameters<typeof buildInput>[0]][] = [
      ['an assignor own limit', { policy: { assignorDefaultLimitBrl: null }, assignor: { ownLimitBrl: m(5000) } }],
      ['a payer own limit', { policy: { assignorDefaultLimitBrl: null }, payers: [buildEntity('p1', { ownLimitBrl: m(5000) })] }],
      ['a payer default', { policy: { assignorDefaultLimitBrl: null, payerDefaultLimitBrl: m(5000) } }],
    ];
    for (const [rule, overrides] of onlyOne) {
      it(`accepts ${rule} as the one per-entity limit that must apply`, () => accepts(buildInput(overrides)));
    }

    it('counts a side default of 0 as configured: it blocks instead of reporting missing configuration', () => {
      expect(refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: Money.ZERO } })).limit_origin).to.equal('side_default_zero');
    });
  });

  describe('composition', () => {
    it('an entity\'s own limit of 0 blocks even when the default is generous', () => {
      expect(refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: m(1e9) }, assignor: { ownLimitBrl: Money.ZERO } }))).to.deep.equal({
        code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'entity_link', scope: { type: 'assignor', id: 'a1', document: 'doc-a1' },
        limit_brl: '0.00', limit_origin: 'entity_override', open_exposure_brl: '0.00', requested_brl: '1000.00',
        message: 'Assignor doc-a1 is blocked: its limit is 0',
      });
    });

    it('a positive own limit prevails over a lower default', () => {
      accepts(buildInput({ policy: { assignorDefaultLimitBrl: m(10) }, assignor: { ownLimitBrl: m(1000) } }));
    });

    it('a positive own limit prevails over a higher default', () => {
      const detail = refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: m(1e9) }, assignor: { ownLimitBrl: m(999.99) } }));
      expect(detail).to.include({ limit_brl: '999.99', limit_origin: 'entity_override', source: 'entity_link' });
    });

    it('a null own limit inherits the side default', () => {
      const detail = refusalOf(buildInput({ policy: { assignorDefaultLimitBrl: m(999.99) } }));
      expect(detail).to.include({ limit_brl: '999.99', limit_origin: 'configured', source: 'policy_assignor_default' });
    });

    it('a side default of 0 blocks every entity that inherits it, with limit_brl "0"', () => {
      const payers = [buildEntity('p1', { ownLimitBrl: m(5000) }), buildEntity('p2')];
      expect(refusalOf(buildInput({ policy: { payerDefaultLimitBrl: Money.ZERO }, payers }))).to.deep.equal({
        code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'policy_payer_default', scope: { type: 'payer', id: 'p2', document: 'doc-p2' },
        limit_brl: '0', limit_origin: 'side_default_zero', open_exposure_brl: '0.00', requested_brl: '1000.00',
        message: 'Payer doc-p2 is blocked: the policy default limit for its side is 0',
      });
    });

    it('the payer default applies to payers as the assignor default does to assignors', () => {
      const payers = [buildEntity('p1', { openExposureBrl: m(600), requestedBrl: m(400.01) })];
      expect(refusalOf(buildInput({ policy: { payerDefaultLimitBrl: m(1000) }, payers }))).to.include({
        source: 'policy_payer_default', limit_brl: '1000.00', limit_origin: 'configured', open_exposure_brl: '600.00', requested_brl: '400.01',
      });
    });

    it('an entity fits when open exposure plus requested equals its limit exactly', () => {
      accepts(buildInput({ policy: { assignorDefaultLimitBrl: m(1000) }, assignor: { openExposureBrl: m(400), requestedBrl: m(600) } }));
    });
  });

  describe('anchoring', () => {
    it('anchoring on the assignor locks an assignor with no limit anywhere, with limit_brl "0"', () => {
      const input = buildInput({ policy: { anchoring: 'assignor', assignorDefaultLimitBrl: null, payerDefaultLimitBrl: m(1e6) } });
      expect(refusalOf(input)).to.deep.equal({
        code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'policy_anchoring', scope: { type: 'assignor', id: 'a1', document: 'doc-a1' },
        limit_brl: '0', limit_origin: 'anchored_side_closed', open_exposure_brl: '0.00', requested_brl: '1000.00',
        message: 'Assignor doc-a1 is locked: risk is anchored on its side and no limit is configured for it',
      });
    });

    it('anchoring on the payer locks the first payer without a limit, in payload order', () => {
      const payers = [buildEntity('p1', { ownLimitBrl: m(5000) }), buildEntity('p2'), buildEntity('p3')];
      const detail = refusalOf(buildInput({ policy: { anchoring: 'payer' }, payers }));
      expect(detail).to.include({ limit_origin: 'anchored_side_closed', limit_brl: '0' });
      expect(detail.scope).to.deep.equal({ type: 'payer', id: 'p2', document: 'doc-p2' });
    });

    it('an own limit lifts the anchored lock for that entity', () => {
      accepts(buildInput({ policy: { anchoring: 'assignor', assignorDefaultLimitBrl: null }, assignor: { ownLimitBrl: m(1000) } }));
    });

    it('a 0 on the anchored side keeps its own origin: entity_override for the link, side_default_zero for the default', () => {
      expect(refusalOf(buildInput({ policy: { anchoring: 'assignor' }, assignor: { ownLimitBrl: Money.ZERO } })).limit_origin).to.equal('entity_override');
      expect(refusalOf(buildInput({ policy: { anchoring: 'assignor', assignorDefaultLimitBrl: Money.ZERO } })).limit_origin).to.equal('side_default_zero');
    });

    it('on the non-anchored side absence means no limit', () => {
      const payers = [buildEntity('p1', { openExposureBrl: m(1e12) })];
      accepts(buildInput({ policy: { anchoring: 'assignor' }, payers }));
    });

    it('on the non-anchored side a configured limit still applies', () => {
      const payers = [buildEntity('p1', { openExposureBrl: m(1), requestedBrl: m(1000) })];
      expect(refusalOf(buildInput({ policy: { anchoring: 'assignor', payerDefaultLimitBrl: m(1000) }, payers }))).to.include({ limit_origin: 'configured', source: 'policy_payer_default' });
    });

    it('anchoring on both sides leaves a side without a limit unlimited and applies the side that has one', () => {
      const payers = [buildEntity('p1', { openExposureBrl: m(1e12) })];
      accepts(buildInput({ policy: { anchoring: 'both' }, payers }));
      expect(refusalOf(buildInput({ policy: { anchoring: 'both' }, assignor: { openExposureBrl: m(99_000.01) } })).scope).to.deep.include({ type: 'assignor' });
    });
  });

  describe('exposure order', () => {
    const over = (id: string) => buildEntity(id, { ownLimitBrl: m(100) });

    it('reports the first payer in payload order when several exceed', () => {
      expect(refusalOf(buildInput({ payers: [buildEntity('p1'), over('p2'), over('p3')] })).scope).to.deep.equal({ type: 'payer', id: 'p2', document: 'doc-p2' });
    });

    it('reports the assignor before any payer', () => {
      expect(refusalOf(buildInput({ assignor: { ownLimitBrl: m(100) }, payers: [over('p1')] })).scope).to.deep.include({ type: 'assignor' });
    });

    it('reports a lock before an excess, even when the excess comes first in payload order', () => {
      const payers = [over('p1'), buildEntity('p2', { ownLimitBrl: Money.ZERO })];
      expect(refusalOf(buildInput({ assignor: { ownLimitBrl: m(100) }, payers })).scope).to.deep.equal({ type: 'payer', id: 'p2', document: 'doc-p2' });
    });

    it('refuses an operation that would take the originator past its aggregate ceiling', () => {
      expect(refusalOf(buildInput({ policy: { aggregateCeilingBrl: m(50_000) }, aggregateOpenExposureBrl: m(49_000.01) }))).to.deep.equal({
        code: 'LIMIT_AGGREGATE_EXPOSURE', source: 'policy_aggregate', scope: { type: 'originator' },
        limit_brl: '50000.00', limit_origin: 'configured', open_exposure_brl: '49000.01', requested_brl: '1000.00',
        message: 'The originator would reach 50000.01 BRL of open exposure, above its limit of 50000.00 BRL',
      });
    });

    it('accepts an operation that takes the originator exactly to its aggregate ceiling', () => {
      accepts(buildInput({ policy: { aggregateCeilingBrl: m(50_000) }, aggregateOpenExposureBrl: m(49_000) }));
    });

    it('reports an entity refusal before the originator-wide ceiling', () => {
      const input = buildInput({ policy: { aggregateCeilingBrl: Money.ZERO }, payers: [over('p1')] });
      expect(refusalOf(input).scope).to.deep.include({ type: 'payer' });
    });
  });

  describe('requested totals by payer', () => {
    it('sums the receivables that share a payer document, in first-appearance order', () => {
      const totals = requestedByPayer([
        { payerDocument: '222', requestedBrl: m(10.1) },
        { payerDocument: '111', requestedBrl: m(5) },
        { payerDocument: '222', requestedBrl: m(0.02) },
      ]);
      expect([...totals].map(([document, total]) => [document, total.toString()])).to.deep.equal([['222', '10.12'], ['111', '5.00']]);
    });

    it('gives no payers for no receivables', () => {
      expect(requestedByPayer([]).size).to.equal(0);
    });
  });
});
