import { randomBytes, randomUUID } from 'node:crypto';
import { FaultBook, MAGIC, Magic } from '../magic';
import { notFound, Refusal, Replays } from '../http';

export const DOCUMENT_TYPES = ['FULL_CONTRACT', 'ADDENDUM'] as const;
export const SIGNER_AUTHS = ['advanced', 'on_screen'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];
export type SignerAuth = (typeof SIGNER_AUTHS)[number];

export interface Signer {
  id: string;
  name: string;
  email: string;
  auth: SignerAuth;
  status: 'pending' | 'signed';
  signedAt: string | null;
  /** The credential inside `sign_url`; whoever holds it signs. */
  token: string;
}

export interface EsignDocument {
  id: string;
  docToken: string;
  type: DocumentType;
  embedded: boolean;
  assignorEmail: string;
  reference: string | null;
  callbackUrl: string | null;
  status: 'running' | 'closed' | 'canceled';
  createdAt: string;
  signers: Signer[];
}

export interface Mail {
  id: string;
  to: string;
  subject: string;
  documentId: string;
  /** The e-mail carries the signer's link, as a real one would. */
  signer: Signer;
  sentAt: string;
}

/** What a restart must not forget, with signers named by id where the live objects share them. */
export interface EsignSnapshot {
  documents: EsignDocument[];
  mails: (Omit<Mail, 'signer'> & { signerId: string })[];
  created: [string, string][];
  added: [string, string[]][];
}

export type NewDocument = Pick<EsignDocument, 'type' | 'embedded' | 'assignorEmail' | 'reference' | 'callbackUrl'>;
export type NewSigner = Pick<Signer, 'name' | 'email'> & { auth: SignerAuth | null };
export type SignerChanges = Partial<Pick<Signer, 'name' | 'email' | 'auth'>>;
export type SigningOutcome = 'signed' | 'already_signed' | 'canceled';

/** Advanced authentication for the first assignment, on-screen for addenda (spec rule 9). */
const DEFAULT_AUTH: Record<DocumentType, SignerAuth> = { FULL_CONTRACT: 'advanced', ADDENDUM: 'on_screen' };

const secret = () => randomBytes(32).toString('base64url');
const now = () => new Date().toISOString();

/** The simulated e-signature provider's documents; `snapshot()`/`restore()` carry them across restarts. */
export class EsignBook {
  private readonly documents = new Map<string, EsignDocument>();
  private readonly byToken = new Map<string, { document: EsignDocument; signer: Signer }>();
  private readonly created = new Replays<EsignDocument>();
  private readonly added = new Replays<Signer[]>();
  readonly mails: Mail[] = [];

  constructor(private readonly faults: FaultBook, private readonly onSigned: (document: EsignDocument, signer: Signer) => void) {}

  create(input: NewDocument, idempotencyKey: string | null): { value: EsignDocument; replayed: boolean } {
    return this.created.run(idempotencyKey, () => {
      this.refuseIf(MAGIC.esignFailCreate, [input.assignorEmail], 'document_creation_refused');
      const document: EsignDocument = { ...input, id: randomUUID(), docToken: secret(), status: 'running', createdAt: now(), signers: [] };
      this.documents.set(document.id, document);
      return document;
    });
  }

  addSigners(documentId: string, signers: NewSigner[], idempotencyKey: string | null): Signer[] {
    const document = this.open(documentId);
    return this.added.run(idempotencyKey && `${documentId} ${idempotencyKey}`, () => {
      this.refuseIf(MAGIC.esignFailSigner, [document.assignorEmail, ...signers.map((s) => s.email)], 'signer_refused');
      return signers.map((input) => {
        const signer: Signer = { ...input, auth: input.auth ?? DEFAULT_AUTH[document.type], id: randomUUID(), status: 'pending', signedAt: null, token: secret() };
        document.signers.push(signer);
        this.byToken.set(signer.token, { document, signer });
        this.mail(document, signer);
        return signer;
      });
    }).value;
  }

  updateSigner(documentId: string, signerId: string, changes: SignerChanges): Signer {
    const document = this.open(documentId);
    const signer = document.signers.find((s) => s.id === signerId);
    if (!signer) throw notFound('signer');
    this.refuseIf(MAGIC.esignFailUpdate, [document.assignorEmail, signer.email, changes.email], 'signer_update_refused');
    if (signer.status === 'signed') throw new Refusal(409, 'signer_already_signed', 'a signer who has signed cannot change');
    const emailChanged = changes.email !== undefined && changes.email !== signer.email;
    Object.assign(signer, changes);
    if (emailChanged) this.mail(document, signer);
    return signer;
  }

  checkTemplates(documentId: string): { type: DocumentType; templates: string[] } {
    const document = this.open(documentId);
    this.refuseIf(MAGIC.esignFailTemplate, this.emailsOf(document), 'template_inventory_incomplete');
    return { type: document.type, templates: [document.type === 'FULL_CONTRACT' ? 'assignment-contract-v3' : 'assignment-addendum-v2'] };
  }

  read(documentId: string): EsignDocument {
    const document = this.find(documentId);
    if (this.faults.applies(MAGIC.esignUnavailable, this.emailsOf(document))) throw new Refusal(503, 'service_unavailable', 'signature service temporarily unavailable');
    return document;
  }

  void(documentId: string): EsignDocument {
    const document = this.find(documentId);
    if (document.status === 'closed') throw new Refusal(409, 'document_closed', 'a fully signed document cannot be voided');
    document.status = 'canceled';
    return document;
  }

  /**
   * Test hook: the provider loses the document (expiry, a deletion on its side, a restored
   * backup), so every later call about it answers 404, as a real provider's would.
   */
  forget(documentId: string): void {
    const document = this.find(documentId);
    this.documents.delete(documentId);
    for (const signer of document.signers) this.byToken.delete(signer.token);
  }

  snapshot(): EsignSnapshot {
    return {
      documents: [...this.documents.values()],
      mails: this.mails.map(({ signer, ...mail }) => ({ ...mail, signerId: signer.id })),
      // A forgotten document's replays stay behind in memory; they are not state worth keeping.
      created: this.created.entries().filter(([, document]) => this.documents.has(document.id)).map(([key, document]) => [key, document.id]),
      added: this.added.entries().filter(([, signers]) => signers.every((s) => this.byToken.has(s.token)))
        .map(([key, signers]) => [key, signers.map((s) => s.id)]),
    };
  }

  restore(snapshot: EsignSnapshot): void {
    const signers = new Map<string, Signer>();
    for (const document of snapshot.documents) {
      this.documents.set(document.id, document);
      for (const signer of document.signers) {
        signers.set(signer.id, signer);
        this.byToken.set(signer.token, { document, signer });
      }
    }
    for (const { signerId, ...mail } of snapshot.mails) this.mails.push({ ...mail, signer: signers.get(signerId)! });
    for (const [key, id] of snapshot.created) this.created.restore(key, this.documents.get(id)!);
    for (const [key, ids] of snapshot.added) this.added.restore(key, ids.map((id) => signers.get(id)!));
  }

  signing(token: string): { document: EsignDocument; signer: Signer } | undefined {
    return this.byToken.get(token);
  }

  sign(token: string): SigningOutcome | undefined {
    const found = this.byToken.get(token);
    if (!found) return undefined;
    const { document, signer } = found;
    if (document.status === 'canceled') return 'canceled';
    if (signer.status === 'signed') return 'already_signed';
    signer.status = 'signed';
    signer.signedAt = now();
    if (document.signers.every((s) => s.status === 'signed')) document.status = 'closed';
    this.onSigned(document, signer);
    return 'signed';
  }

  private find(documentId: string): EsignDocument {
    const document = this.documents.get(documentId);
    if (!document) throw notFound('document');
    return document;
  }

  private open(documentId: string): EsignDocument {
    const document = this.find(documentId);
    if (document.status !== 'running') throw new Refusal(409, 'document_not_running', `document is ${document.status}`);
    return document;
  }

  private emailsOf(document: EsignDocument): string[] {
    return [document.assignorEmail, ...document.signers.map((s) => s.email)];
  }

  private refuseIf(magic: Magic, emails: (string | undefined)[], code: string): void {
    if (this.faults.applies(magic, emails)) throw new Refusal(422, code, `refused by sandbox magic value ${magic}`);
  }

  /** Embedded documents notify nobody: the integrator presents `sign_url` itself. */
  private mail(document: EsignDocument, signer: Signer): void {
    if (document.embedded) return;
    const subject = document.type === 'FULL_CONTRACT' ? 'Please sign your receivables assignment contract' : 'Please sign your assignment addendum';
    this.mails.push({ id: randomUUID(), to: signer.email, subject, documentId: document.id, signer, sentAt: now() });
  }
}
