import { Router } from 'express';
import { asBody, list, oneOf, optionalFlag, optionalText, optionalUrl, requiredText } from '../http';
import { DOCUMENT_TYPES, EsignBook, EsignDocument, SIGNER_AUTHS, Signer, SignerChanges } from './documents';

export type SignUrlOf = (signer: Signer) => string;

/** Provider-style payloads: lower-case status texts, snake_case, the link only while it can sign. */
function presentSigner(signer: Signer, signUrlOf: SignUrlOf) {
  return {
    id: signer.id,
    name: signer.name,
    email: signer.email,
    auth: signer.auth,
    status: signer.status,
    signed_at: signer.signedAt,
    sign_url: signer.status === 'signed' ? null : signUrlOf(signer),
  };
}

function presentDocument(document: EsignDocument, signUrlOf: SignUrlOf) {
  return {
    id: document.id,
    doc_token: document.docToken,
    type: document.type,
    embedded: document.embedded,
    status: document.status,
    external_reference: document.reference,
    created_at: document.createdAt,
    signers: document.signers.map((s) => presentSigner(s, signUrlOf)),
  };
}

function signerChanges(raw: unknown): SignerChanges {
  const body = asBody(raw);
  const changes: SignerChanges = {};
  if (body.name !== undefined) changes.name = requiredText(body, 'name');
  if (body.email !== undefined) changes.email = requiredText(body, 'email');
  if (body.auth !== undefined) changes.auth = oneOf(body, 'auth', SIGNER_AUTHS);
  return changes;
}

export function esignRoutes(book: EsignBook, signUrlOf: SignUrlOf): Router {
  const router = Router();
  router.post('/documents', (req, res) => {
    const body = asBody(req.body);
    const { value, replayed } = book.create({
      type: oneOf(body, 'type', DOCUMENT_TYPES),
      embedded: optionalFlag(body, 'embedded'),
      assignorEmail: requiredText(body, 'assignor_email'),
      reference: optionalText(body, 'external_reference'),
      callbackUrl: optionalUrl(body, 'callback_url'),
    }, req.get('Idempotency-Key') ?? null);
    res.status(replayed ? 200 : 201).json({ document: presentDocument(value, signUrlOf) });
  });

  router.get('/documents/:id', (req, res) => {
    res.json({ document: presentDocument(book.read(req.params.id), signUrlOf) });
  });

  router.post('/documents/:id/signers', (req, res) => {
    const signers = list(asBody(req.body), 'signers').map((item) => ({
      name: requiredText(item, 'name'),
      email: requiredText(item, 'email'),
      auth: item.auth === undefined ? null : oneOf(item, 'auth', SIGNER_AUTHS),
    }));
    const added = book.addSigners(req.params.id, signers, req.get('Idempotency-Key') ?? null);
    res.status(201).json({ signers: added.map((s) => presentSigner(s, signUrlOf)) });
  });

  router.patch('/documents/:id/signers/:signerId', (req, res) => {
    const signer = book.updateSigner(req.params.id, req.params.signerId, signerChanges(req.body));
    res.json({ signer: presentSigner(signer, signUrlOf) });
  });

  router.get('/documents/:id/templates', (req, res) => {
    res.json({ ...book.checkTemplates(req.params.id), complete: true });
  });

  router.post('/documents/:id/void', (req, res) => {
    res.json({ document: presentDocument(book.void(req.params.id), signUrlOf) });
  });

  // Not a provider route: lets a test make the provider forget a document (sandbox/README.md).
  router.post('/documents/:id/forget', (req, res) => {
    book.forget(req.params.id);
    res.status(204).end();
  });

  router.get('/mailbox', (req, res) => {
    const to = typeof req.query.to === 'string' ? req.query.to.toLowerCase() : null;
    const documentId = typeof req.query.document_id === 'string' ? req.query.document_id : null;
    const messages = book.mails
      .filter((m) => (to === null || m.to.toLowerCase() === to) && (documentId === null || m.documentId === documentId))
      .map((m) => ({ id: m.id, to: m.to, subject: m.subject, document_id: m.documentId, signer_id: m.signer.id, sign_url: signUrlOf(m.signer), sent_at: m.sentAt }));
    res.json({ messages });
  });

  return router;
}
