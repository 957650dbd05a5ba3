import { Router } from 'express';
import type { AuditTrail } from '../audit/audit-trail';
import { created, handle, ok } from '../http/handle';
import { body } from '../http/request-helpers';
import { StaffUsersRepository } from '../../db/repositories/staff-users';
import { presentStaffUser, StaffService } from './staff-service';

/** Staff accounts for admins, and the enrolment an invited user completes; every change is audited. */
export function staffRoutes(deps: { service: StaffService; audit: AuditTrail; now: () => Date }): Router {
  const router = Router();

  router.post('/v1/backoffice/users', handle(async (req, uow) => {
    const invited = await deps.service.invite(uow.db, body<'inviteStaffUser'>(req), deps.now());
    const { enrolment_token: _shownOnce, ...after } = invited;
    uow.afterCommit(() => deps.audit.record(req, { action: 'user.invite', target: { type: 'user', id: invited.id }, after }));
    return created(invited);
  }));

  router.get('/v1/backoffice/users', handle(async (_req, uow) => ok({ items: (await new StaffUsersRepository(uow.db).list()).map(presentStaffUser) })));

  router.patch('/v1/backoffice/users/:id', handle(async (req, uow) => {
    const { before, after } = await deps.service.change(uow.db, String(req.params.id), body<'changeStaffUser'>(req), deps.now());
    uow.afterCommit(() => deps.audit.record(req, { action: 'user.change', target: { type: 'user', id: after.id }, before, after }));
    return ok(after);
  }));

  router.post('/v1/auth/enrol', handle(async (req, uow) => {
    const sent = body<'enrolStaffUser'>(req);
    const enrolled = await deps.service.enrol(uow.db, { enrolmentToken: sent.enrolment_token, password: sent.password }, deps.now());
    uow.afterCommit(() => deps.audit.record(req, {
      action: 'user.enrol', actor: { type: 'user', id: enrolled.user.id, email: enrolled.user.email }, target: { type: 'user', id: enrolled.user.id },
      after: { status: enrolled.user.status, totp_enrolled: true },
    }));
    return ok(enrolled);
  }));
  return router;
}
