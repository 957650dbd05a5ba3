export { checkCreditLimits } from './check';
export { requestedByPayer } from './requested';
export type { PayerAmount } from './requested';
export { ENTITY_LEVELS_REQUIRED } from './refusals';
export type { ConfigLevel, ConfigMissingDetail, CreditLimitDetail, EntityLevel, ExposureDetail, LimitScope, OperationValueDetail } from './refusals';
export type { LimitOrigin, LimitSource } from './resolve';
export type { Anchoring, EntityExposure, LimitCheckInput, LimitPolicy, Side } from './types';
