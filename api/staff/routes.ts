import { Router, type Request } from 'express';
import type { AuditTrail } from '../audit/audit-trail';
import { created, handle, ok } from '../http/handle';
import { body } from '../http/request-helpers';
import { StaffUsersRepository } from '../../db/repositories/staff-users';
import { presentRoleGrant, presentStaffUser, StaffService } from './staff-service';
import type { Schema } from '../openapi/contract-types';

/** The admin acting: these routes take only staff user tokens (`backoffice:admin`). */
function actorOf(req: Request): string {
  const principal = req.ctx.principal!;
  if (principal.tokenType !== 'user') throw new Error('staff routes are reached by user tokens only');
  return principal.userId;
}

const accepted = (user: Schema<'StaffUser'>, grant: Schema<'RoleGrant'>) => ({ status: 202, body: { ...user, pending_grant: grant } });

/**
 * Staff accounts for admins, and the enrolment an invited user completes. Every change
 * writes its audit row in the request's transaction: no change commits without its row.
 */
export function staffRoutes(deps: { service: StaffService; audit: AuditTrail; now: () => Date }): Router {
  const router = Router();

  router.post('/v1/backoffice/users', handle(async (req, uow) => {
    const { user, grant } = await deps.service.invite(uow.db, body<'inviteStaffUser'>(req), actorOf(req), deps.now());
    await deps.audit.record(req, { action: 'user.invite', target: { type: 'user', id: user.id }, after: user }, uow.db);
    if (!grant) return created(user);
    await deps.audit.record(req, { action: 'role_grant.request', target: { type: 'user', id: user.id }, after: presentRoleGrant(grant) }, uow.db);
    return accepted(user, presentRoleGrant(grant));
  }));

  router.get('/v1/backoffice/users', handle(async (_req, uow) => ok({ items: (await new StaffUsersRepository(uow.db).list()).map(presentStaffUser) })));

  router.patch('/v1/backoffice/users/:id', handle(async (req, uow) => {
    const { before, after, grant } = await deps.service.change(uow.db, String(req.params.id), body<'changeStaffUser'>(req), actorOf(req), deps.now());
    await deps.audit.record(req, { action: 'user.change', target: { type: 'user', id: after.id }, before, after }, uow.db);
    if (!grant) return ok(after);
    await deps.audit.record(req, { action: 'role_grant.request', target: { type: 'user', id: after.id }, after: presentRoleGrant(grant) }, uow.db);
    return accepted(after, presentRoleGrant(grant));
  }));

  router.get('/v1/backoffice/role-grants', handle(async (_req, uow) => ok({ items: await deps.service.pendingGrants(uow.db) })));

  router.post('/v1/backoffice/role-grants/:id/confirm', handle(async (req, uow) => {
    const { grant, before, after } = await deps.service.confirmGrant(uow.db, String(req.params.id), actorOf(req), deps.now());
    await deps.audit.record(req, { action: 'role_grant.confirm', target: { type: 'user', id: after.id }, before, after: { ...after, grant_id: grant.id } }, uow.db);
    return ok({ ...grant, user: after });
  }));

  router.post('/v1/auth/enrol', handle(async (req, uow) => {
    const sent = body<'enrolStaffUser'>(req);
    const enrolled = await deps.service.enrol(uow.db, { enrolmentToken: sent.enrolment_token, password: sent.password }, deps.now());
    await deps.audit.record(req, {
      action: 'user.enrol', actor: { type: 'user', id: enrolled.user.id, email: enrolled.user.email }, target: { type: 'user', id: enrolled.user.id },
      after: { status: enrolled.user.status, totp_enrolled: true },
    }, uow.db);
    return ok(enrolled);
  }));
  return router;
}
