import { Forbidden } from '../errors';
import type { Money } from '../money';
import type { EffectiveLimit, LimitOrigin, LimitSource } from './resolve';
import type { Side } from './types';

/* The 403 details of the contract's "Credit limit engine". Type aliases, not interfaces, so
   they stay assignable to errors.ts `Detail`. Money is rendered with two decimals. */

export type OperationValueDetail =
  | { code: 'LIMIT_MAX_OPERATION_VALUE'; source: 'policy_per_operation'; max_allowed_brl: string; requested_brl: string; message: string }
  | { code: 'LIMIT_MIN_OPERATION_VALUE'; source: 'policy_per_operation'; min_allowed_brl: string; requested_brl: string; message: string };

export type EntityLevel = 'assignor_link' | 'payer_link' | 'assignor_default' | 'payer_default';
export type ConfigLevel = 'aggregate' | EntityLevel;

/** Any one of these suffices (rule 6), hence one fixed list. */
export const ENTITY_LEVELS_REQUIRED: readonly EntityLevel[] = ['assignor_link', 'payer_link', 'assignor_default', 'payer_default'];

export type ConfigMissingDetail = {
  code: 'LIMIT_CONFIG_MISSING' | 'LIMIT_ENTITY_CONFIG_MISSING';
  configured_levels: ConfigLevel[];
  entity_levels_required: EntityLevel[];
  message: string;
};

export type LimitScope = { type: Side; id: string | null; document: string } | { type: 'originator' };

export type ExposureDetail = {
  code: 'LIMIT_AGGREGATE_EXPOSURE';
  source: LimitSource;
  scope: LimitScope;
  limit_brl: string;
  limit_origin: LimitOrigin;
  open_exposure_brl: string;
  requested_brl: string;
  message: string;
};

export type CreditLimitDetail = OperationValueDetail | ConfigMissingDetail | ExposureDetail;

export function maxOperationRefusal(maxBrl: Money, requestedBrl: Money): Forbidden {
  return new Forbidden({
    code: 'LIMIT_MAX_OPERATION_VALUE', source: 'policy_per_operation', max_allowed_brl: maxBrl.toString(), requested_brl: requestedBrl.toString(),
    message: `Operation total ${requestedBrl} BRL is above the policy maximum of ${maxBrl} BRL per operation`,
  } satisfies OperationValueDetail);
}

export function minOperationRefusal(minBrl: Money, requestedBrl: Money): Forbidden {
  return new Forbidden({
    code: 'LIMIT_MIN_OPERATION_VALUE', source: 'policy_per_operation', min_allowed_brl: minBrl.toString(), requested_brl: requestedBrl.toString(),
    message: `Operation total ${requestedBrl} BRL is below the policy minimum of ${minBrl} BRL per operation`,
  } satisfies OperationValueDetail);
}

const CONFIG_MESSAGES: Record<ConfigMissingDetail['code'], string> = {
  LIMIT_CONFIG_MISSING: 'No aggregate credit limit is configured for this originator; an operator must configure one before operations can be approved',
  LIMIT_ENTITY_CONFIG_MISSING: 'No per-entity credit limit applies to this operation; an operator must configure an assignor or payer limit (own or policy default)',
};

export function configRefusal(code: ConfigMissingDetail['code'], configuredLevels: ConfigLevel[]): Forbidden {
  return new Forbidden({
    code, configured_levels: configuredLevels, entity_levels_required: [...ENTITY_LEVELS_REQUIRED], message: CONFIG_MESSAGES[code],
  } satisfies ConfigMissingDetail);
}

function subjectOf(scope: LimitScope): string {
  return scope.type === 'originator' ? 'The originator' : `${scope.type === 'assignor' ? 'Assignor' : 'Payer'} ${scope.document}`;
}

function exposureMessage(subject: string, limit: EffectiveLimit, reachedBrl: Money): string {
  if (limit.origin === 'anchored_side_closed') return `${subject} is locked: risk is anchored on its side and no limit is configured for it`;
  if (limit.origin === 'side_default_zero') return `${subject} is blocked: the policy default limit for its side is 0`;
  if (limit.limitBrl.isZero()) return `${subject} is blocked: its limit is 0`;
  return `${subject} would reach ${reachedBrl} BRL of open exposure, above its limit of ${limit.limitBrl} BRL`;
}

/** The contract writes these two deliberate locks as a bare "0", not as a money amount. */
const BARE_ZERO_ORIGINS: readonly LimitOrigin[] = ['anchored_side_closed', 'side_default_zero'];

export function exposureRefusal(scope: LimitScope, limit: EffectiveLimit, openBrl: Money, requestedBrl: Money): Forbidden {
  return new Forbidden({
    code: 'LIMIT_AGGREGATE_EXPOSURE',
    source: limit.source,
    scope,
    limit_brl: BARE_ZERO_ORIGINS.includes(limit.origin) ? '0' : limit.limitBrl.toString(),
    limit_origin: limit.origin,
    open_exposure_brl: openBrl.toString(),
    requested_brl: requestedBrl.toString(),
    message: exposureMessage(subjectOf(scope), limit, openBrl.plus(requestedBrl)),
  } satisfies ExposureDetail);
}
