/**
 * The contract's lockout (5 consecutive failures lock the account for 30 minutes; a right password
 * on a locked account is 423, a wrong one 401; after the lock runs out the count restarts), and
 * what makes the 423 worth nothing to a guesser: every failure during a lock counts
 * and pushes the lock out, doubling with each, up to a day.
 */
export interface LockoutPolicy {
  maxFailures: number;
  lockMinutes: number;
}

export interface LoginState {
  failedAttempts: number;
  lockedUntil: Date | null;
}

export type LoginVerdict =
  | { outcome: 'success' }
  | { outcome: 'locked' }
  | { outcome: 'failure'; failedAttempts: number; lockedUntil: Date | null };

const MAX_LOCK_MS = 24 * 3_600_000;

/**
 * An address the account signed in from within this many days is its owner's: attempts from it
 * are judged by their own lockout and spared the account's ceiling, so failures from elsewhere
 * cannot keep the owner out.
 */
export const OWN_ADDRESS_DAYS = 30;

export const ownAddressesSince = (now: Date): Date => new Date(now.getTime() - OWN_ADDRESS_DAYS * 86_400_000);

export function judgeLogin(state: LoginState, passwordMatches: boolean, now: Date, policy: LockoutPolicy): LoginVerdict {
  const lockMs = policy.lockMinutes * 60_000;
  const locked = state.lockedUntil !== null && state.lockedUntil.getTime() > now.getTime();
  if (locked) {
    if (passwordMatches) return { outcome: 'locked' };
    const failedAttempts = state.failedAttempts + 1;
    const beyond = Math.max(0, failedAttempts - policy.maxFailures);
    const extension = Math.min(MAX_LOCK_MS, lockMs * 2 ** Math.min(beyond, 16));
    const lockedUntil = new Date(Math.max(state.lockedUntil!.getTime(), now.getTime() + extension));
    return { outcome: 'failure', failedAttempts, lockedUntil };
  }
  if (passwordMatches) return { outcome: 'success' };
  // After a lock has run out the counter restarts: this failure is the first of a new series.
  const failedAttempts = (state.lockedUntil ? 0 : state.failedAttempts) + 1;
  const lockedUntil = failedAttempts >= policy.maxFailures ? new Date(now.getTime() + lockMs) : null;
  return { outcome: 'failure', failedAttempts, lockedUntil };
}
