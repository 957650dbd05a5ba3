export { MONEY_NAMES, renderMoney } from './names';
export type { CanonicalMoney } from './names';
export type { ConflictField } from './read';
export { normaliseValues } from './normalise';
export type { MoneyRoute, ValueSet, ValueSource } from './normalise';
