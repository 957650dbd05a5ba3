import type { Act, Duplicata } from './port';
import type { RegistrationStatus } from './registration';

/**
 * How our record of an act and the escriturador's disagree:
 * - `act_missing_there`: we hold an act in force (or settled) the escriturador does not know;
 * - `act_cancelled_there`: we hold it in force, the escriturador has it cancelled (behind our back);
 * - `holder_changed_there`: our act stands, but someone else holds the duplicata now (negotiated behind our back);
 * - `act_in_force_there`: we cancelled it, the escriturador still has it registered;
 * - `settled_there`: the duplicata is paid in full there while our act is only registered (a settlement we missed);
 * - `not_settled_there`: we count it settled, the escriturador does not.
 */
export const REGISTRATION_MISMATCH_KINDS = [
  'act_missing_there', 'act_cancelled_there', 'holder_changed_there', 'act_in_force_there', 'settled_there', 'not_settled_there',
] as const;
export type RegistrationMismatchKind = (typeof REGISTRATION_MISMATCH_KINDS)[number];

/** Our acts the reconciliation compares: those the escriturador answered (registered, cancelled, settled), with their act id. */
export const RECONCILED_STATUSES: readonly RegistrationStatus[] = ['registered', 'cancelled', 'settled'];

/** The first difference between our act and the escriturador's record of it, or null when they agree. */
export function registrationMismatch(ours: { status: RegistrationStatus; actId: string }, there: { duplicata: Duplicata; acts: readonly Act[] }): RegistrationMismatchKind | null {
  const act = there.acts.find((candidate) => candidate.actId === ours.actId);
  if (ours.status === 'cancelled') return act?.status === 'registered' ? 'act_in_force_there' : null;
  if (!act) return 'act_missing_there';
  if (ours.status === 'settled') return there.duplicata.settled ? null : 'not_settled_there';
  if (act.status === 'cancelled') return 'act_cancelled_there';
  if (there.duplicata.holderDocument !== act.toDocument) return 'holder_changed_there';
  return there.duplicata.settled ? 'settled_there' : null;
}
