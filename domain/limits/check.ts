import { configRefusal, exposureRefusal, maxOperationRefusal, minOperationRefusal, type ConfigLevel } from './refusals';
import { resolveEntityLimit, type EffectiveLimit } from './resolve';
import type { EntityExposure, LimitCheckInput, Side } from './types';

interface Subject {
  side: Side;
  entity: EntityExposure;
}
interface LimitedSubject extends Subject {
  limit: EffectiveLimit;
}

/**
 * The credit limit engine: returns when the operation may be created, otherwise throws the
 * contract's 403 `Forbidden`. Order: per-operation maximum, minimum; configuration family;
 * entity locks (limit 0 of any origin); entity exposure (assignor, then payers in payload
 * order); originator-wide ceiling. Pure: the caller loads and row-locks what it passes in.
 */
export function checkCreditLimits(input: LimitCheckInput): void {
  const { policy, operationTotalBrl } = input;
  if (policy.maxOperationBrl !== null && operationTotalBrl.gt(policy.maxOperationBrl)) throw maxOperationRefusal(policy.maxOperationBrl, operationTotalBrl);
  if (policy.minOperationBrl !== null && policy.minOperationBrl.gt(operationTotalBrl)) throw minOperationRefusal(policy.minOperationBrl, operationTotalBrl);

  if (policy.aggregateCeilingBrl === null) throw configRefusal('LIMIT_CONFIG_MISSING', configuredLevels(input));

  const subjects: Subject[] = [{ side: 'assignor', entity: input.assignor }, ...input.payers.map((entity) => ({ side: 'payer' as const, entity }))];
  const limited = subjects.flatMap((subject): LimitedSubject[] => {
    const limit = resolveEntityLimit(subject.side, subject.entity, policy);
    return limit === null ? [] : [{ ...subject, limit }];
  });
  // Rule 6. An anchored-side lock exists for want of a number, so it is not a configured limit.
  if (!limited.some(({ limit }) => limit.origin !== 'anchored_side_closed')) throw configRefusal('LIMIT_ENTITY_CONFIG_MISSING', configuredLevels(input));

  // Locks go before excesses: they hold whatever the amounts, so shrinking an operation refused
  // for an excess never uncovers a lock.
  const refused = limited.find(({ limit }) => limit.limitBrl.isZero())
    ?? limited.find(({ entity, limit }) => entity.openExposureBrl.plus(entity.requestedBrl).gt(limit.limitBrl));
  if (refused) {
    const { side, entity, limit } = refused;
    throw exposureRefusal({ type: side, id: entity.entityId, document: entity.document }, limit, entity.openExposureBrl, entity.requestedBrl);
  }

  const ceiling = policy.aggregateCeilingBrl;
  if (input.aggregateOpenExposureBrl.plus(operationTotalBrl).gt(ceiling)) {
    throw exposureRefusal({ type: 'originator' }, { limitBrl: ceiling, origin: 'configured', source: 'policy_aggregate' }, input.aggregateOpenExposureBrl, operationTotalBrl);
  }
}

/** What the configuration family reports as present, in a fixed order. */
function configuredLevels({ policy, assignor, payers }: LimitCheckInput): ConfigLevel[] {
  const present: [ConfigLevel, boolean][] = [
    ['aggregate', policy.aggregateCeilingBrl !== null],
    ['assignor_link', assignor.ownLimitBrl !== null],
    ['payer_link', payers.some((payer) => payer.ownLimitBrl !== null)],
    ['assignor_default', policy.assignorDefaultLimitBrl !== null],
    ['payer_default', policy.payerDefaultLimitBrl !== null],
  ];
  return present.filter(([, on]) => on).map(([level]) => level);
}
