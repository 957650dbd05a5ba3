/** What the recovery workflow and its activity tell each other (`POST /v1/webhooks/{id}/recover`). */
export interface RecoveryInput {
  recoveryId: string;
  subscriptionId: string;
  originatorId: string;
  since: string;
  until: string;
  timeoutMs: number;
}

/** `more`: a full batch went out; `stalled`: an event was refused and nothing after it was sent; `finished`: nothing left (or the recovery ended). */
export type RecoveryStep = 'more' | 'stalled' | 'finished';

/** Events a step sends at most: a step stays well within its activity timeout even at 10 s a POST. */
export const RECOVERY_BATCH = 20;
