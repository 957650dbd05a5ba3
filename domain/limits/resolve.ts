import { Money } from '../money';
import type { EntityExposure, LimitPolicy, Side } from './types';

export type LimitOrigin = 'configured' | 'entity_override' | 'anchored_side_closed' | 'side_default_zero';

/** The layer an operator has to change to lift a refusal. */
export type LimitSource = 'entity_link' | 'policy_assignor_default' | 'policy_payer_default' | 'policy_anchoring' | 'policy_aggregate';

export interface EffectiveLimit {
  limitBrl: Money;
  origin: LimitOrigin;
  source: LimitSource;
}

/**
 * Composition rules 1–3 of the contract for one entity: its own limit, else its side's default,
 * else locked when its side is the anchored one, else no limit at all (null).
 */
export function resolveEntityLimit(side: Side, entity: EntityExposure, policy: LimitPolicy): EffectiveLimit | null {
  if (entity.ownLimitBrl !== null) return { limitBrl: entity.ownLimitBrl, origin: 'entity_override', source: 'entity_link' };
  const sideDefault = side === 'assignor' ? policy.assignorDefaultLimitBrl : policy.payerDefaultLimitBrl;
  if (sideDefault !== null) {
    return { limitBrl: sideDefault, origin: sideDefault.isZero() ? 'side_default_zero' : 'configured', source: `policy_${side}_default` };
  }
  if (policy.anchoring === side) return { limitBrl: Money.ZERO, origin: 'anchored_side_closed', source: 'policy_anchoring' };
  return null;
}
