/** Where a disbursement's PIX stands at the provider; the repository stores it, the activity reads it. */
export type PixStatus = 'PENDING' | 'SETTLED' | 'REJECTED';

/** PIX on a key (the assignor's document) or a transfer to a bank account (spec "Bank object"). */
export type PixDestination =
  | { kind: 'pix_key'; key: string }
  | { kind: 'bank_account'; code: string; agency: string; account: string; type: 'CC' | 'SA' | 'CP' };

/** DESIGN.md §4: the key is derived from the operation and the attempt, so a retried call pays once. */
export const disbursementKey = (operationId: string, attempt: number): string => `operation-${operationId}-pix-${attempt}`;
