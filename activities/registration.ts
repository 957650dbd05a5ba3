import { ApplicationFailure } from '@temporalio/activity';
import type { Knex } from 'knex';
import { RegistrationSettingsRepository } from '../db/repositories/registration-settings';
import { actCancelKey, paymentInformKey, RegistrationSettings, titleActKey } from '../domain/escriturador/negotiation';
import type { Act, Duplicata, Escriturador, NegotiationOutcome } from '../domain/escriturador/port';
import { RegistrarError } from '../providers/provider-errors';

export interface RegistrationActivityDeps {
  db: Knex;
  escriturador: Escriturador;
}

/** Transient failures retry under the activity's policy; a refusal will not change on retry. */
async function provider<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RegistrarError) {
      if (!err.retryable) throw ApplicationFailure.nonRetryable(err.message, err.code);
      throw ApplicationFailure.retryable(err.message, err.code);
    }
    throw err;
  }
}

/**
 * The escriturador's calls as activities. Each act is sent with a key derived from what it is
 * about (the title, the act, the payment), so an activity retried after a lost answer, or run
 * again by a replayed workflow, records nothing twice.
 */
export function createRegistrationActivities({ db, escriturador }: RegistrationActivityDeps) {
  const settings = new RegistrationSettingsRepository(db);
  return {
    /** Null: the originator registers nothing (no escriturador configured for it). */
    registrationSettingsOf({ originatorId }: { originatorId: string }): Promise<RegistrationSettings | null> {
      return settings.ofOriginator(originatorId);
    },

    lookupDuplicatas({ nfeKey }: { nfeKey: string }): Promise<Duplicata[]> {
      return provider(() => escriturador.lookup(nfeKey));
    },

    /** The title's acquisition from the assignor by the originator's holder, with the originator's negotiation type. */
    registerTitleAct(input: { titleId: string; duplicataId: string; assignorDocument: string; settings: RegistrationSettings }): Promise<NegotiationOutcome> {
      const { holderDocument, negotiationType } = input.settings;
      return provider(() => escriturador.negotiate({
        kind: 'transfer', duplicataId: input.duplicataId, fromDocument: input.assignorDocument, toDocument: holderDocument, negotiationType,
      }, titleActKey(input.titleId)));
    },

    cancelAct({ actId }: { actId: string }): Promise<Act> {
      return provider(() => escriturador.cancelAct(actId, actCancelKey(actId)));
    },

    duplicataStatus({ duplicataId }: { duplicataId: string }): Promise<{ duplicata: Duplicata; acts: Act[] }> {
      return provider(() => escriturador.status(duplicataId));
    },

    /** A payment we received outside the escriturador, so the payer is not asked to pay it again. */
    informTitlePayment(input: { titleId: string; paymentId: string; duplicataId: string; amount: string; paidAt: string }): Promise<Duplicata> {
      return provider(() => escriturador.informPayment(input.duplicataId, input.amount, input.paidAt, paymentInformKey(input.titleId, input.paymentId)));
    },
  };
}

export type RegistrationActivities = ReturnType<typeof createRegistrationActivities>;
