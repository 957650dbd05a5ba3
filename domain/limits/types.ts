import type { Money } from '../money';

/** The side whose absence of a limit locks its entities; `both` anchors neither (rule 2). */
export type Anchoring = 'assignor' | 'payer' | 'both';

export type Side = 'assignor' | 'payer';

/** The originator's policy, as far as the credit limit engine reads it. */
export interface LimitPolicy {
  minOperationBrl: Money | null;
  maxOperationBrl: Money | null;
  /** Originator-wide ceiling; null means "not configured", which refuses every operation. */
  aggregateCeilingBrl: Money | null;
  /** Side defaults: null is "not configured", 0 is a deliberate block. */
  assignorDefaultLimitBrl: Money | null;
  payerDefaultLimitBrl: Money | null;
  anchoring: Anchoring;
}

/** One assignor or payer of the operation, loaded (and row-locked) by the caller. */
export interface EntityExposure {
  /** Null when the refused request itself registered the entity: its row goes with the refusal. */
  entityId: string | null;
  document: string;
  /** The link's own limit: positive prevails over the default, 0 blocks, null inherits. */
  ownLimitBrl: Money | null;
  /** Σ outstanding of the entity's open titles (requested net future value on the payer side). */
  openExposureBrl: Money;
  /** What this operation adds for this entity. */
  requestedBrl: Money;
}

export interface LimitCheckInput {
  policy: LimitPolicy;
  operationTotalBrl: Money;
  assignor: EntityExposure;
  /** In payload order (first appearance): the first payer refused is the one reported. */
  payers: readonly EntityExposure[];
  /** Σ outstanding of every open title of the originator. */
  aggregateOpenExposureBrl: Money;
}
