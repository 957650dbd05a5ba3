import { expect } from 'chai';
import fc from 'fast-check';
import { Forbidden } from '../../domain/errors';
import { Money } from '../../domain/money';
import { checkCreditLimits, type Anchoring, type EntityExposure, type LimitCheckInput } from '../../domain/limits';

const CENT = Money.of('0.01');
const money = fc.nat({ max: 100_000_000 }).map((cents) => Money.fromCents(cents));
/** Limits hit 0 and null often, where the rules branch. */
const limit = fc.option(fc.oneof(fc.constant(Money.ZERO), money), { nil: null });
const anchoring = fc.constantFrom<Anchoring>('assignor', 'payer', 'both');

function entity(id: string, fields: { ownLimitBrl: Money | null; openExposureBrl: Money; requestedBrl: Money }): EntityExposure {
  return { entityId: id, document: `doc-${id}`, ...fields };
}

/** A realistic operation: the total and the assignor's requested value are Σ of the payers'. */
function operation(parts: { assignor: { ownLimitBrl: Money | null; openExposureBrl: Money }; payers: { ownLimitBrl: Money | null; openExposureBrl: Money; requestedBrl: Money }[] }) {
  const total = Money.sum(parts.payers.map((payer) => payer.requestedBrl));
  return {
    operationTotalBrl: total,
    assignor: entity('a', { ...parts.assignor, requestedBrl: total }),
    payers: parts.payers.map((payer, index) => entity(`p${index}`, payer)),
  };
}

const anyInput: fc.Arbitrary<LimitCheckInput> = fc.record({
  policy: fc.record({
    minOperationBrl: fc.option(money, { nil: null, freq: 2 }), maxOperationBrl: fc.option(money, { nil: null, freq: 2 }), aggregateCeilingBrl: limit,
    assignorDefaultLimitBrl: limit, payerDefaultLimitBrl: limit, anchoring,
  }),
  assignor: fc.record({ ownLimitBrl: limit, openExposureBrl: money }),
  payers: fc.array(fc.record({ ownLimitBrl: limit, openExposureBrl: money, requestedBrl: money }), { minLength: 1, maxLength: 4 }),
  aggregateOpenExposureBrl: money,
}).map(({ policy, aggregateOpenExposureBrl, ...parts }) => ({ policy, aggregateOpenExposureBrl, ...operation(parts) }));

/** Every limit is built above what it measures, slack apart; anchored sides and rule 6 are satisfied. */
const fittingInput: fc.Arbitrary<LimitCheckInput> = fc.record({
  anchoring,
  assignor: fc.record({ openExposureBrl: money, own: fc.boolean() }),
  payers: fc.array(fc.record({ openExposureBrl: money, requestedBrl: money, own: fc.boolean() }), { minLength: 1, maxLength: 4 }),
  defaults: fc.record({ assignor: fc.boolean(), payer: fc.boolean(), bounds: fc.boolean() }),
  slack: money,
  aggregateOpenExposureBrl: money,
}).map(({ anchoring, assignor, payers, defaults, slack, aggregateOpenExposureBrl }) => {
  const shape = operation({ assignor: { ...assignor, ownLimitBrl: null }, payers: payers.map((payer) => ({ ...payer, ownLimitBrl: null })) });
  const above = (used: Money) => used.plus(slack).plus(CENT);
  const usage = (e: EntityExposure) => e.openExposureBrl.plus(e.requestedBrl);
  const own = [assignor.own, ...payers.map((payer) => payer.own)];
  const [assignorEntity, ...payerEntities] = [shape.assignor, ...shape.payers].map((e, i) => ({ ...e, ownLimitBrl: own[i] ? above(usage(e)) : null }));
  const defaultFor = (wanted: boolean, side: EntityExposure[]) => (wanted ? above(Money.sum(side.map(usage))) : null);
  const anyOwn = own.some(Boolean);
  return {
    policy: {
      minOperationBrl: defaults.bounds ? shape.operationTotalBrl.min(slack) : null,
      maxOperationBrl: defaults.bounds ? shape.operationTotalBrl.plus(slack) : null,
      aggregateCeilingBrl: aggregateOpenExposureBrl.plus(shape.operationTotalBrl).plus(slack),
      assignorDefaultLimitBrl: defaultFor(defaults.assignor || anchoring === 'assignor' || (!anyOwn && !defaults.payer), [assignorEntity]),
      payerDefaultLimitBrl: defaultFor(defaults.payer || anchoring === 'payer', payerEntities),
      anchoring,
    },
    operationTotalBrl: shape.operationTotalBrl, assignor: assignorEntity, payers: payerEntities, aggregateOpenExposureBrl,
  };
});

function refusalOf(input: LimitCheckInput): Record<string, unknown> | undefined {
  try {
    checkCreditLimits(input);
    return undefined;
  } catch (error) {
    expect(error).to.be.instanceOf(Forbidden);
    return (error as Forbidden).detail as Record<string, unknown>;
  }
}

const within = (input: LimitCheckInput) => ({ ...input, policy: { ...input.policy, minOperationBrl: null, maxOperationBrl: null } });

describe('credit limit engine properties', () => {
  it('an operation that fits every applicable limit never throws', () => {
    fc.assert(fc.property(fittingInput, (input) => {
      expect(refusalOf(input)).to.equal(undefined);
    }), { numRuns: 500 });
  });

  it('adding open exposure never turns a refusal into an acceptance', () => {
    const bump = fc.record({ target: fc.nat(), extra: money });
    // Fitting inputs give the acceptances a bump can break; arbitrary ones mostly refusals.
    fc.assert(fc.property(fc.oneof(anyInput, fittingInput), bump, (input, { target, extra }) => {
      const grow = (e: EntityExposure) => ({ ...e, openExposureBrl: e.openExposureBrl.plus(extra) });
      const slot = target % (input.payers.length + 2);
      const bumped: LimitCheckInput = slot === 0 ? { ...input, aggregateOpenExposureBrl: input.aggregateOpenExposureBrl.plus(extra) }
        : slot === 1 ? { ...input, assignor: grow(input.assignor) }
          : { ...input, payers: input.payers.map((payer, index) => (index === slot - 2 ? grow(payer) : payer)) };
      if (refusalOf(input) !== undefined) expect(refusalOf(bumped)).not.to.equal(undefined);
    }), { numRuns: 1000 });
  });

  it('a total above the per-operation maximum is refused for that, whatever else is wrong', () => {
    fc.assert(fc.property(anyInput, (input) => {
      const max = input.operationTotalBrl.minus(CENT);
      fc.pre(!max.isNegative());
      expect(refusalOf({ ...input, policy: { ...input.policy, maxOperationBrl: max } })?.code).to.equal('LIMIT_MAX_OPERATION_VALUE');
    }));
  });

  it('without an aggregate ceiling every operation within its bounds is refused with LIMIT_CONFIG_MISSING', () => {
    fc.assert(fc.property(anyInput, (input) => {
      const detail = refusalOf({ ...within(input), policy: { ...within(input).policy, aggregateCeilingBrl: null } });
      expect(detail?.code).to.equal('LIMIT_CONFIG_MISSING');
    }));
  });

  it('renders money with two decimals, and a bare "0" only for the two deliberate locks', () => {
    fc.assert(fc.property(anyInput, (input) => {
      const detail = refusalOf(within(input));
      if (detail?.code !== 'LIMIT_AGGREGATE_EXPOSURE') return;
      const bareZero = detail.limit_origin === 'anchored_side_closed' || detail.limit_origin === 'side_default_zero';
      expect(detail.limit_brl).to.match(bareZero ? /^0$/ : /^\d+\.\d{2}$/);
      expect(detail.open_exposure_brl).to.match(/^\d+\.\d{2}$/);
      expect(detail.requested_brl).to.match(/^\d+\.\d{2}$/);
    }), { numRuns: 500 });
  });
});
