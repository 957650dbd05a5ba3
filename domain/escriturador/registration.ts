import { storedDocument } from '../documents';
import { RuleViolation } from '../errors';
import { keyOfFingerprint } from '../receivable-identity';
import { checkedAtSefaz, type NfeToCheck } from '../sefaz/creation-refusal';
import type { NegotiationType, Registrar } from './negotiation';
import type { Duplicata, RefusalReason } from './port';

/**
 * Our act on a title's duplicata, as we record it: `requested` while the escriturador has not
 * answered, `registered` once our acquisition is in force, `refused` (the reason says why),
 * `cancelled` when the operation fell through or the title went back to the assignor, `settled`
 * once the duplicata is paid in full.
 */
export const REGISTRATION_STATUSES = ['requested', 'registered', 'refused', 'cancelled', 'settled'] as const;
export type RegistrationStatus = (typeof REGISTRATION_STATUSES)[number];

export interface TitleRegistration {
  titleId: string;
  registrar: Registrar;
  duplicataId: string;
  actId: string | null;
  negotiationType: NegotiationType;
  status: RegistrationStatus;
  registeredAt: Date | null;
  refusalReason: RefusalReason | null;
}

/** Only an NF-e (model 55) has duplicatas escriturais; the fingerprint holds its key. */
export function registrableKey(fingerprint: string | null): string | null {
  const key = fingerprint === null ? null : keyOfFingerprint(fingerprint);
  return key !== null && checkedAtSefaz(key) ? key : null;
}

/**
 * The duplicata a title acquires among its NF-e's: the installment due on the title's due date,
 * else the first installment (the escriturador issues one installment for an NF-e without
 * `cobr/dup`). Null when the escriturador holds none for the key.
 */
export function duplicataOfTitle(duplicatas: readonly Duplicata[], dueDate: string): Duplicata | null {
  const sorted = [...duplicatas].sort((a, b) => a.installment.localeCompare(b.installment));
  return sorted.find((d) => d.dueDate === dueDate) ?? sorted[0] ?? null;
}

/** A title's act still awaited from the escriturador: none recorded yet (the duplicata's lookup unanswered), or asked and unanswered. */
export const actAwaited = (recorded: TitleRegistration | undefined): boolean => recorded === undefined || recorded.status === 'requested';

/** The cancellation reason (and creation's refusal code) when a title's duplicata is held by someone else. */
export const RECEIVABLE_ENCUMBERED = 'receivable_encumbered';

/** Creation's refusal code for an NF-e that no escriturador keeps a duplicata of. */
export const NFE_ISSUER_NOT_REGISTRABLE = 'nfe_issuer_not_registrable';

/**
 * A duplicata (Lei 5.474/1968, escritural under Lei 13.775/2018) is drawn by a business on its
 * sale: an NF-e its assignor issued as an individual (a CPF, `000` + CPF in the key: a rural
 * producer, whose sales go by other instruments) backs none an escriturador keeps.
 */
const drawsDuplicatas = (issuerDocument: string): boolean => storedDocument(issuerDocument).kind === 'cnpj';

/** The first of the NF-e (model 55) creation looks up, when their issuer draws no duplicatas: a title of it could never be registered. */
export function unregistrableIssuer(looked: readonly NfeToCheck[], assignorDocument: string): RuleViolation | null {
  const [first] = looked;
  if (!first || drawsDuplicatas(assignorDocument)) return null;
  return new RuleViolation({
    code: NFE_ISSUER_NOT_REGISTRABLE,
    message: `Receivable ${first.externalId}: NF-e ${first.key} was issued under a CPF, and no escriturador keeps a duplicata of it; this originator registers every NF-e title it funds`,
    external_id: first.externalId, loc: [...first.loc, 'nfe_key'], nfe_key: first.key,
  });
}

/** A duplicata negotiated away by its seller: whoever holds it now is not the assignor. */
export const encumbered = (duplicata: Duplicata, assignorDocument: string): boolean => duplicata.holderDocument !== assignorDocument;

/** A title's registration as its read shows it. */
export interface RegistrationView {
  status: RegistrationStatus | 'not_registrable' | 'not_requested';
  registrar: Registrar | null;
  duplicata_id: string | null;
  act_id: string | null;
  negotiation_type: NegotiationType | null;
  registered_at: string | null;
  refusal_reason: RefusalReason | null;
}

const NONE = { registrar: null, duplicata_id: null, act_id: null, negotiation_type: null, registered_at: null, refusal_reason: null };

/**
 * `not_registrable` for a title no NF-e model 55 backs (a boleto, an NFS-e, an NFC-e...);
 * `not_requested` for one whose act was not asked for (before the check before the PIX, or an
 * originator that registers at no escriturador); else our act as recorded.
 */
export function registrationView(fingerprint: string | null, recorded: TitleRegistration | null): RegistrationView {
  if (recorded) {
    return {
      status: recorded.status, registrar: recorded.registrar, duplicata_id: recorded.duplicataId, act_id: recorded.actId,
      negotiation_type: recorded.negotiationType, registered_at: recorded.registeredAt?.toISOString() ?? null, refusal_reason: recorded.refusalReason,
    };
  }
  return { status: registrableKey(fingerprint) === null ? 'not_registrable' : 'not_requested', ...NONE };
}
