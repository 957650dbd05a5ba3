import { EsignError, EsignErrorCode } from './provider-errors';
import { pathOf, ProviderHttp, ProviderRequest, Reader } from './provider-http';
import type { ContractType } from '../domain/contract-type';

/** Advanced authentication for a full contract, on-screen signature for an addendum (spec rule 9). */
export type SignerAuth = 'advanced' | 'on_screen';

export interface NewDocument {
  type: ContractType;
  /** The provider e-mails nobody; the integrator presents each `signUrl` itself. */
  embedded: boolean;
  /** The assignor's e-mail (the sandbox reads its magic values from it). */
  assignorEmail: string;
  /** Ours (e.g. the contract id), echoed back in signature callbacks. */
  reference: string;
  callbackUrl: string | null;
  idempotencyKey: string;
}

export interface NewSigner {
  name: string;
  email: string;
  auth?: SignerAuth;
}

export interface EsignSigner {
  signerId: string;
  name: string;
  email: string;
  /** The provider's own text, passed through; may change spelling without notice. Decide with `signed`. */
  status: string;
  signed: boolean;
  /** A credential (whoever holds it signs): never log it. Null once signed. */
  signUrl: string | null;
}

export interface EsignDocument {
  documentId: string;
  /** Opaque, for support correlation; does not open the signing page. */
  docToken: string;
  /** The provider's own text, passed through. */
  documentStatus: string;
  signers: EsignSigner[];
}

/** A provider callback says a signer signed; it is only a hint: re-read the document to decide. */
export interface SignatureNotice {
  documentId: string;
  reference: string | null;
  signerId: string;
}

export interface EsignProvider {
  createDocument(input: NewDocument): Promise<EsignDocument>;
  addSigners(documentId: string, signers: NewSigner[], idempotencyKey: string): Promise<EsignSigner[]>;
  updateSigner(documentId: string, signerId: string, changes: Partial<NewSigner>): Promise<EsignSigner>;
  /** Resolves when the templates for the document's type are all in place. */
  checkTemplates(documentId: string): Promise<void>;
  getDocument(documentId: string): Promise<EsignDocument>;
  /** Idempotent; a document the provider does not know (already gone) counts as voided. */
  voidDocument(documentId: string): Promise<void>;
}

/** Our rule, stable whatever the provider's spelling: only an explicit "signed" counts; anything unknown does not. */
export function isSigned(providerStatus: string): boolean {
  return providerStatus.trim().toLowerCase() === 'signed';
}

function readSigner(reply: Reader): EsignSigner {
  const status = reply.at('status').text();
  const signed = isSigned(status);
  return {
    signerId: reply.at('id').text(),
    name: reply.at('name').text(),
    email: reply.at('email').text(),
    status,
    signed,
    signUrl: signed ? null : reply.at('sign_url').textOrNull(),
  };
}

function readDocument(reply: Reader): EsignDocument {
  return {
    documentId: reply.at('id').text(),
    docToken: reply.at('doc_token').text(),
    documentStatus: reply.at('status').text(),
    signers: reply.at('signers').list().map(readSigner),
  };
}

export function readSignatureCallback(body: unknown): SignatureNotice | null {
  const reply = new Reader(body, 'callback');
  try {
    return { documentId: reply.at('document_id').text(), reference: reply.at('external_reference').textOrNull(), signerId: reply.at('signer').at('id').text() };
  } catch {
    return null;
  }
}

export class HttpEsignProvider implements EsignProvider {
  private readonly http: ProviderHttp;

  constructor(baseUrl: string, timeoutMs: number) {
    this.http = new ProviderHttp(baseUrl, timeoutMs);
  }

  createDocument(input: NewDocument): Promise<EsignDocument> {
    const body = { type: input.type, embedded: input.embedded, assignor_email: input.assignorEmail, external_reference: input.reference, callback_url: input.callbackUrl };
    return this.call('esign_create_failed', { method: 'POST', path: pathOf('documents'), body, idempotencyKey: input.idempotencyKey }, (r) => readDocument(r.at('document')));
  }

  addSigners(documentId: string, signers: NewSigner[], idempotencyKey: string): Promise<EsignSigner[]> {
    const request: ProviderRequest = { method: 'POST', path: pathOf('documents', documentId, 'signers'), body: { signers }, idempotencyKey };
    return this.call('esign_add_signer_failed', request, (r) => r.at('signers').list().map(readSigner));
  }

  updateSigner(documentId: string, signerId: string, changes: Partial<NewSigner>): Promise<EsignSigner> {
    const request: ProviderRequest = { method: 'PATCH', path: pathOf('documents', documentId, 'signers', signerId), body: changes };
    return this.call('esign_update_signer_failed', request, (r) => readSigner(r.at('signer')));
  }

  checkTemplates(documentId: string): Promise<void> {
    return this.call('esign_template_inventory_failed', { method: 'GET', path: pathOf('documents', documentId, 'templates') }, (r) => {
      if (!r.at('complete').flag()) throw new Error('template inventory incomplete');
    });
  }

  getDocument(documentId: string): Promise<EsignDocument> {
    return this.call('esign_unavailable', { method: 'GET', path: pathOf('documents', documentId) }, (r) => readDocument(r.at('document')));
  }

  async voidDocument(documentId: string): Promise<void> {
    try {
      await this.call('esign_void_failed', { method: 'POST', path: pathOf('documents', documentId, 'void') }, () => undefined);
    } catch (err) {
      if (!(err instanceof EsignError && err.providerStatus === 404)) throw err;
    }
  }

  private call<T>(code: EsignErrorCode, request: ProviderRequest, parse: (reply: Reader) => T): Promise<T> {
    return this.http.call(request, parse, (message, status) => new EsignError(code, message, status));
  }
}
