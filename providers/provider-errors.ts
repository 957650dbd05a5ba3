/**
 * Failures of the external providers, named by the step that failed so the workflow can record
 * `CONTRACT_ERROR` with the contract's code and the api can answer 502 `esign_unavailable`.
 * They carry no provider payload, only a message for logs.
 */
export type EsignErrorCode =
  | 'esign_create_failed'
  | 'esign_add_signer_failed'
  | 'esign_update_signer_failed'
  | 'esign_template_inventory_failed'
  | 'esign_unavailable'
  | 'esign_void_failed';

/** `pix_rejected`: the provider refused the order itself (4xx); `pix_unavailable`: it could not be reached or failed. */
export type PixErrorCode = 'pix_rejected' | 'pix_unavailable';

/**
 * Worth retrying with backoff: the provider was unreachable, timed out, throttled, failed (5xx) or
 * answered something we could not read (no status). A refusal (other 4xx) is not.
 */
export function isTransient(providerStatus: number | null): boolean {
  return providerStatus === null || providerStatus === 429 || providerStatus >= 500;
}

export abstract class ProviderError<Code extends string> extends Error {
  readonly retryable: boolean;

  constructor(readonly code: Code, message: string, readonly providerStatus: number | null) {
    super(`${code}: ${message}`);
    this.name = new.target.name;
    this.retryable = isTransient(providerStatus);
  }
}

export class EsignError extends ProviderError<EsignErrorCode> {}

export class PixError extends ProviderError<PixErrorCode> {}

/** The collection PSP (API Pix): `pix_collection_refused` a 4xx, `pix_collection_unavailable` anything transient. */
export type PixCollectionErrorCode = 'pix_collection_refused' | 'pix_collection_unavailable';

export class PixCollectionError extends ProviderError<PixCollectionErrorCode> {}

/** SEFAZ could not be asked: unreachable, timed out, failed (5xx) or answered what we could not read. */
export class SefazError extends ProviderError<'sefaz_unavailable'> {}
/**
 * The escriturador of duplicatas: `registrar_refused` a request it refused (4xx) other than a
 * negotiation's refusal, which is an answer (domain/escriturador/port.ts); `registrar_unavailable`
 * anything transient. `refusalCode`: the escriturador's own code for a 4xx.
 */
export type RegistrarErrorCode = 'registrar_refused' | 'registrar_unavailable';

export class RegistrarError extends ProviderError<RegistrarErrorCode> {
  constructor(code: RegistrarErrorCode, message: string, providerStatus: number | null, readonly refusalCode: string | null = null) {
    super(code, message, providerStatus);
  }
}
