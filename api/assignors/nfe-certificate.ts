import { Router } from 'express';
import { NotFound } from '../../domain/errors';
import { certificateRefusal, unreadableCertificate } from '../../domain/nfe-certificate';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import { Pkcs12Unreadable, readPkcs12, type Pkcs12Certificate } from '../../platform/crypto/pkcs12';
import { AssignorsRepository } from '../../db/repositories/assignors';
import { AssignorNfeCertificatesRepository, NfeCertificateMetadata } from '../../db/repositories/assignor-nfe-certificates';
import { handle, noContent, ok } from '../http/handle';
import { body, tenantOf } from '../http/request-helpers';
import type { UnitOfWork } from '../http/context';
import type { Request } from 'express';

const present = (stored: NfeCertificateMetadata) => ({
  assignor_id: stored.assignorId, subject: stored.subject, serial: stored.serial, not_after: stored.notAfter.toISOString(), uploaded_at: stored.uploadedAt.toISOString(),
});

function opened(pfx: Buffer, password: string): Pkcs12Certificate {
  try {
    return readPkcs12(pfx, password);
  } catch (err) {
    if (err instanceof Pkcs12Unreadable) throw unreadableCertificate(err.message);
    throw err;
  }
}

/** The assignor named in the path, of the caller's originator (404 for another's). */
async function assignorOf(req: Request, uow: UnitOfWork) {
  const assignor = await new AssignorsRepository(uow.db, tenantOf(req)).byId(String(req.params.id));
  if (!assignor) throw new NotFound('assignor_not_found');
  return assignor;
}

/**
 * An assignor's delegated A1 certificate, with which SEFAZ shows us its payers' manifestações:
 * stored sealed, file and password, once it opens and is the assignor's; read back as metadata only.
 */
export function nfeCertificateRoutes(ring: CipherRing, now: () => Date): Router {
  const router = Router();
  const certificates = (req: Request, uow: UnitOfWork) => new AssignorNfeCertificatesRepository(uow.db, tenantOf(req));

  router.put('/v1/assignors/:id/nfe-certificate', handle(async (req, uow) => {
    const assignor = await assignorOf(req, uow);
    const sent = body<'putAssignorNfeCertificate'>(req);
    const pfx = Buffer.from(sent.pfx, 'base64');
    const certificate = opened(pfx, sent.password);
    const at = now();
    const refusal = certificateRefusal(certificate, assignor.document, at);
    if (refusal) throw refusal;
    const stored = await certificates(req, uow).put({
      assignorId: assignor.id, sealedPfx: ring.sealText(pfx.toString('base64')), sealedPassphrase: ring.sealText(sent.password),
      subject: certificate.subject, serial: certificate.serial, notAfter: certificate.notAfter,
    }, at);
    return ok(present(stored));
  }));

  router.get('/v1/assignors/:id/nfe-certificate', handle(async (req, uow) => {
    await assignorOf(req, uow);
    const stored = await certificates(req, uow).metadata(String(req.params.id));
    if (!stored) throw new NotFound('nfe_certificate_not_found');
    return ok(present(stored));
  }));

  router.delete('/v1/assignors/:id/nfe-certificate', handle(async (req, uow) => {
    await assignorOf(req, uow);
    if (!(await certificates(req, uow).remove(String(req.params.id)))) throw new NotFound('nfe_certificate_not_found');
    return noContent();
  }));
  return router;
}
