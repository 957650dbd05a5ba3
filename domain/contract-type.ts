/** A full contract for an assignor's first operation, an addendum after it (spec rule 9). */
export type ContractType = 'FULL_CONTRACT' | 'ADDENDUM';
