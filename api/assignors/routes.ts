import { Router } from 'express';
import { readAssignor, resolvePrimaryAccount } from '../../domain/assignor-registration';
import { Conflict, NotFound } from '../../domain/errors';
import { AssignorsRepository } from '../../db/repositories/assignors';
import { created, handle, ok } from '../http/handle';
import { body, page, tenantOf } from '../http/request-helpers';
import { presentAssignor } from './presenter';
import type { CipherRing } from '../../platform/crypto/cipher-ring';
import { nfeCertificateRoutes } from './nfe-certificate';

export function assignorRoutes(deps: { ring: CipherRing; now: () => Date }): Router {
  const router = Router();
  router.use(nfeCertificateRoutes(deps.ring, deps.now));

  router.post('/v1/assignors', handle(async (req, uow) => {
    const sent = body<'createAssignor'>(req);
    const input = readAssignor(sent);
    const account = sent.bank ? resolvePrimaryAccount(sent.bank, input) : null;
    const { row, created: isNew } = await new AssignorsRepository(uow.db, tenantOf(req)).register(input, account);
    if (!isNew) {
      throw new Conflict({ code: 'assignor_already_exists', message: `An assignor with document ${input.document} already exists`, assignor_id: row.id });
    }
    return created(presentAssignor(row));
  }));

  router.get('/v1/assignors', handle(async (req, uow) => {
    const { limit, offset } = page(req);
    const { items, total } = await new AssignorsRepository(uow.db, tenantOf(req)).list(limit, offset);
    return ok({ items: items.map(presentAssignor), total, limit, offset });
  }));

  router.get('/v1/assignors/:id', handle(async (req, uow) => {
    const row = await new AssignorsRepository(uow.db, tenantOf(req)).byId(String(req.params.id));
    if (!row) throw new NotFound('assignor_not_found');
    return ok(presentAssignor(row));
  }));
  return router;
}
