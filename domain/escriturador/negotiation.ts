import { isValidCnpj, stripDocument } from '../documents';
import { FieldError, ValidationFailed } from '../errors';

/**
 * The negotiation type an acquisition is recorded with, by the holder's nature (Res. BCB 339/2023
 * as amended): `aquisicao` without recourse, `aquisicao_com_regresso` by a non-financial holder,
 * `desconto` by a bank, `credito_garantido` when the duplicata secures a loan.
 */
export const NEGOTIATION_TYPES = ['aquisicao', 'aquisicao_com_regresso', 'desconto', 'credito_garantido'] as const;
export type NegotiationType = (typeof NEGOTIATION_TYPES)[number];

/** Our titles carry recourse to the assignor, and most originators are not banks. */
export const DEFAULT_NEGOTIATION_TYPE: NegotiationType = 'aquisicao_com_regresso';

export type HolderNature = 'non_financial' | 'bank' | 'secured_lender';

export function negotiationTypeFor(nature: HolderNature, withRecourse: boolean): NegotiationType {
  if (nature === 'bank') return 'desconto';
  if (nature === 'secured_lender') return 'credito_garantido';
  return withRecourse ? 'aquisicao_com_regresso' : 'aquisicao';
}

/** The escrituradores we have an adapter for; `sandbox` is the simulated one (sandbox/escriturador). */
export const REGISTRARS = ['sandbox'] as const;
export type Registrar = (typeof REGISTRARS)[number];

/** Per originator: where its titles' duplicatas are registered, who holds them, and how they are negotiated. */
export interface RegistrationSettings {
  registrar: Registrar;
  /** The originator's CNPJ, or its fund's: whoever the acquisition makes holder. */
  holderDocument: string;
  negotiationType: NegotiationType;
}

/** Validates settings as given (by staff or a seed); a missing negotiation type takes the default. */
export function registrationSettings(input: { registrar: string; holderDocument: string; negotiationType?: string | null }): RegistrationSettings {
  const holderDocument = stripDocument(input.holderDocument);
  const errors: FieldError[] = [];
  if (!(REGISTRARS as readonly string[]).includes(input.registrar)) errors.push({ loc: ['registrar'], type: 'registrar_unknown', msg: `registrar must be one of ${REGISTRARS.join(', ')}` });
  if (!isValidCnpj(holderDocument)) errors.push({ loc: ['holder_document'], type: 'holder_document_invalid', msg: 'holder_document must be a valid CNPJ' });
  const negotiationType = input.negotiationType ?? DEFAULT_NEGOTIATION_TYPE;
  if (!(NEGOTIATION_TYPES as readonly string[]).includes(negotiationType)) {
    errors.push({ loc: ['negotiation_type'], type: 'negotiation_type_unknown', msg: `negotiation_type must be one of ${NEGOTIATION_TYPES.join(', ')}` });
  }
  if (errors.length > 0) throw new ValidationFailed(errors);
  return { registrar: input.registrar as Registrar, holderDocument, negotiationType: negotiationType as NegotiationType };
}

/**
 * One acquisition per title, ever: retried or replayed, the act's request carries the same key, so
 * the escriturador records it once.
 */
export const titleActKey = (titleId: string) => `title-act:${titleId}`;
export const actCancelKey = (actId: string) => `act-cancel:${actId}`;
export const paymentInformKey = (titleId: string, paymentId: string) => `title-payment:${titleId}:${paymentId}`;
