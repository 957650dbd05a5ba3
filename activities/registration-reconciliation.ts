import type { Knex } from 'knex';
import type { Escriturador } from '../domain/escriturador/port';
import { RegistrationMismatchKind, registrationMismatch } from '../domain/escriturador/reconciliation';
import { addDays, businessDate } from '../domain/pricing';
import { ReconciledRegistration, TitleRegistrationsRepository } from '../db/repositories/title-registrations';
import { RegistrarError } from '../providers/provider-errors';
import { registrationReconciliationMismatches } from '../platform/telemetry/metrics';

/** Acts cancelled or settled this many days ago are still compared: long enough for a late cancellation or payment there to show. */
const SETTLED_ACTS_WATCHED_DAYS = 35;

export interface RegistrationMismatch {
  titleId: string;
  duplicataId: string;
  actId: string;
  kind: RegistrationMismatchKind;
}

export interface RegistrationReconciliation {
  checked: number;
  mismatches: RegistrationMismatch[];
}

/**
 * Compares each act of ours with the escriturador's record of its duplicata and reports each
 * difference: the event `registration.reconciliation_mismatch` to the title's originator (once a
 * day per title and kind) and the metric. A duplicata the escriturador no longer knows counts as
 * our act missing there; the escriturador unreachable fails the run, to be tried again.
 */
export function registrationReconciler({ db, escriturador }: { db: Knex; escriturador: Escriturador }) {
  const registrations = new TitleRegistrationsRepository(db);

  async function compare(ours: ReconciledRegistration): Promise<RegistrationMismatchKind | null> {
    try {
      return registrationMismatch(ours, await escriturador.status(ours.duplicataId));
    } catch (err) {
      if (err instanceof RegistrarError && err.refusalCode === 'duplicata_not_found') return 'act_missing_there';
      throw err;
    }
  }

  /** Every originator's acts, or `originatorId`'s only (the sandbox's control for integrators). */
  return async function reconcileRegistrations(now: Date, originatorId?: string): Promise<RegistrationReconciliation> {
    const day = businessDate(now);
    const acts = await registrations.toReconcile(new Date(`${addDays(day, -SETTLED_ACTS_WATCHED_DAYS)}T00:00:00Z`), originatorId);
    const mismatches: RegistrationMismatch[] = [];
    for (const ours of acts) {
      const kind = await compare(ours);
      if (kind === null) continue;
      await registrations.mismatchFound(ours, kind, day, now);
      registrationReconciliationMismatches.inc({ kind });
      mismatches.push({ titleId: ours.titleId, duplicataId: ours.duplicataId, actId: ours.actId, kind });
    }
    return { checked: acts.length, mismatches };
  };
}

export function createRegistrationReconciliationActivities(deps: { db: Knex; escriturador: Escriturador; now?: () => Date }) {
  const reconcile = registrationReconciler(deps);
  const now = deps.now ?? (() => new Date());
  return {
    reconcileRegistrations(): Promise<RegistrationReconciliation> {
      return reconcile(now());
    },
  };
}
