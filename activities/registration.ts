import { ApplicationFailure, log } from '@temporalio/activity';
import type { Knex } from 'knex';
import { RegistrationSettingsRepository } from '../db/repositories/registration-settings';
import { NfeChecksRepository, TitleNfe } from '../db/repositories/nfe-checks';
import { TitleRegistrationsRepository } from '../db/repositories/title-registrations';
import { channelOfPayment } from '../db/repositories/title-payments';
import { actCancelKey, paymentInformKey, RegistrationSettings, titleActKey } from '../domain/escriturador/negotiation';
import { ACT_SUPERSEDED, type Act, type Duplicata, type Escriturador, type NegotiationOutcome, type RefusalReason } from '../domain/escriturador/port';
import { duplicataOfTitle, TitleRegistration } from '../domain/escriturador/registration';
import { checkedAtSefaz } from '../domain/sefaz/creation-refusal';
import { RegistrarError } from '../providers/provider-errors';
import { registrationWaits } from '../platform/telemetry/metrics';

export interface RegistrationActivityDeps {
  db: Knex;
  escriturador: Escriturador;
  now?: () => Date;
}

/** The first title whose act the escriturador refused: the operation is cancelled with `receivable_encumbered`. */
export interface RegistrationRefusal {
  titleId: string;
  externalId: string;
  key: string;
  reason: RefusalReason;
}

/** The code of the retryable failure while the escriturador cannot be asked: the workflow's retry policy waits it out. */
export const REGISTRAR_NO_ANSWER = 'registrar_no_answer';

/**
 * Any failure of the escriturador while registering is waited out, a refusal of a request
 * included (a bad key, a duplicata it lost): the operation waits in SIGNED, shows in the stuck
 * view, and never pays a title that is not registered.
 */
async function waitingOn<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof RegistrarError) {
      registrationWaits.inc({ reason: err.code === 'registrar_unavailable' ? 'unavailable' : 'refused' });
      throw ApplicationFailure.retryable(`escriturador: ${err.message}`, REGISTRAR_NO_ANSWER);
    }
    throw err;
  }
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
 * Our transfer cancelled at the escriturador, or null when it can no longer be: its acquirer has
 * negotiated the duplicata on since (`act_superseded`), so the act is no longer ours to undo and no
 * retry changes that. It stays `registered` on our record, as it is there, and the daily
 * reconciliation reports its duplicata held by someone else (`holder_changed_there`).
 */
async function cancelledUnlessSuperseded(escriturador: Escriturador, recorded: TitleRegistration & { actId: string }): Promise<Act | null> {
  try {
    return await escriturador.cancelAct(recorded.actId, actCancelKey(recorded.actId));
  } catch (err) {
    if (!(err instanceof RegistrarError) || err.refusalCode !== ACT_SUPERSEDED) throw err;
    log.warn('escriturador: our act left in force, the duplicata negotiated on since', { titleId: recorded.titleId, actId: recorded.actId, duplicataId: recorded.duplicataId });
    return null;
  }
}

/**
 * The escriturador's calls as activities. Each act is sent with a key derived from what it is
 * about (the title, the act, the payment), so an activity retried after a lost answer, or run
 * again by a replayed workflow, records nothing twice.
 */
export function createRegistrationActivities({ db, escriturador, now = () => new Date() }: RegistrationActivityDeps) {
  const settings = new RegistrationSettingsRepository(db);
  const registrations = new TitleRegistrationsRepository(db);
  const facts = (title: TitleNfe, operationId: string) => ({ id: title.titleId, originatorId: title.originatorId, operationId, externalId: title.externalId });

  /** One title's act: asked once (its key), recorded `requested` first, then as the escriturador answered. */
  const registerTitle = async (operationId: string, title: TitleNfe, held: RegistrationSettings, earlier: TitleRegistration | undefined): Promise<RefusalReason | null> => {
    let recorded = earlier;
    if (!recorded) {
      const duplicata = duplicataOfTitle(await waitingOn(() => escriturador.lookup(title.key)), title.dueDate);
      // An escriturador that holds no duplicata for the NF-e: the assignor holds nothing to transfer.
      if (!duplicata) return 'not_holder';
      recorded = await registrations.request({
        titleId: title.titleId, originatorId: title.originatorId, operationId, registrar: held.registrar, duplicataId: duplicata.duplicataId, negotiationType: held.negotiationType,
      }, now());
    }
    if (recorded.status === 'refused') return recorded.refusalReason;
    if (recorded.status !== 'requested') return null;
    const outcome = await waitingOn(() => escriturador.negotiate({
      kind: 'transfer', duplicataId: recorded!.duplicataId, fromDocument: title.issuerDocument, toDocument: held.holderDocument, negotiationType: recorded!.negotiationType,
    }, titleActKey(title.titleId)));
    if (outcome.outcome === 'refused') {
      await registrations.refused(facts(title, operationId), outcome.reason, now());
      return outcome.reason;
    }
    await registrations.registered(facts(title, operationId), { actId: outcome.act.actId, registeredAt: new Date(outcome.act.registeredAt) }, now());
    return null;
  };

  return {
    /**
     * Before the PIX, after the NF-e check: our acquisition of every NF-e (model 55) title's
     * duplicata, title by title, for an originator that registers (none: nothing to do). The
     * first refusal stops and is returned; the escriturador unreachable throws a retryable failure.
     */
    async registerOperationActs({ operationId }: { operationId: string }): Promise<{ refusal: RegistrationRefusal | null }> {
      const titles = (await new NfeChecksRepository(db).titleNfes(operationId)).filter((title) => checkedAtSefaz(title.key));
      if (titles.length === 0) return { refusal: null };
      const held = await settings.ofOriginator(titles[0].originatorId);
      if (!held) return { refusal: null };
      // What earlier attempts recorded, read once for the operation rather than title by title.
      const earlier = new Map((await registrations.ofOperation(operationId)).map((recorded) => [recorded.titleId, recorded]));
      for (const title of titles) {
        const reason = await registerTitle(operationId, title, held, earlier.get(title.titleId));
        if (reason) return { refusal: { titleId: title.titleId, externalId: title.externalId, key: title.key, reason } };
      }
      return { refusal: null };
    },

    /**
     * The operation fell through: every act of ours on its titles cancelled at the escriturador. A
     * title whose request went unanswered asks again with the same key, which answers the act if
     * there is one, so no act is left in force, but one whose duplicata has been negotiated on since
     * (`cancelledUnlessSuperseded`), which no wait could undo.
     */
    async cancelOperationActs({ operationId }: { operationId: string }): Promise<void> {
      const titles = new Map((await new NfeChecksRepository(db).titleNfes(operationId)).map((title) => [title.titleId, title]));
      const held = titles.size === 0 ? null : await settings.ofOriginator([...titles.values()][0].originatorId);
      for (const recorded of await registrations.ofOperation(operationId)) {
        if (recorded.status !== 'requested' && recorded.status !== 'registered') continue;
        let actId = recorded.actId;
        const title = titles.get(recorded.titleId);
        if (actId === null && title && held) {
          const outcome = await waitingOn(() => escriturador.negotiate({
            kind: 'transfer', duplicataId: recorded.duplicataId, fromDocument: title.issuerDocument, toDocument: held.holderDocument, negotiationType: recorded.negotiationType,
          }, titleActKey(recorded.titleId)));
          actId = outcome.outcome === 'registered' ? outcome.act.actId : null;
        }
        if (actId !== null && !(await waitingOn(() => cancelledUnlessSuperseded(escriturador, { ...recorded, actId: actId! })))) continue;
        await registrations.cancelled(recorded.titleId, now());
      }
    },

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

    /**
     * A payer's payment applied to a title whose act is registered, informed to the escriturador
     * (once: its key is the payment's); the title paid in full, our registration is `settled`. One
     * the escriturador already counts as paid in full (`duplicata_settled`) has nothing left to
     * inform, nor has one it reported itself (the boleto dinâmico paid to us): told back, it would count twice.
     */
    async informRegistrarOfPayment(input: { titleId: string; paymentId: string; amount: string; paidAt: string; paidInFull: boolean }): Promise<void> {
      const recorded = await registrations.ofTitle(input.titleId);
      if (recorded?.status !== 'registered') return;
      if (await channelOfPayment(db, input.paymentId) !== 'REGISTRAR') await provider(() => escriturador.informPayment(recorded.duplicataId, input.amount, input.paidAt, paymentInformKey(input.titleId, input.paymentId)).catch((err: unknown) => {
        if (err instanceof RegistrarError && err.refusalCode === 'duplicata_settled') return null;
        throw err;
      }));
      if (input.paidInFull) await registrations.settled(input.titleId, now());
    },

    /**
     * The title went back to the assignor by recourse: our act cancelled, so the duplicata is the
     * assignor's again; one negotiated on since stays with whoever holds it (`cancelledUnlessSuperseded`).
     */
    async cancelTitleAct({ titleId }: { titleId: string }): Promise<void> {
      const recorded = await registrations.ofTitle(titleId);
      if (recorded?.status !== 'registered' || recorded.actId === null) return;
      const actId = recorded.actId;
      if (await provider(() => cancelledUnlessSuperseded(escriturador, { ...recorded, actId }))) await registrations.cancelled(titleId, now());
    },

    /** A payment we received outside the escriturador, so the payer is not asked to pay it again. */
    informTitlePayment(input: { titleId: string; paymentId: string; duplicataId: string; amount: string; paidAt: string }): Promise<Duplicata> {
      return provider(() => escriturador.informPayment(input.duplicataId, input.amount, input.paidAt, paymentInformKey(input.titleId, input.paymentId)));
    },
  };
}

export type RegistrationActivities = ReturnType<typeof createRegistrationActivities>;
