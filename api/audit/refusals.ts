import type { Request } from 'express';
import { AppError, errorCode } from '../../domain/errors';
import type { Logger } from '../../platform/logger';
import type { AuditTrail } from './audit-trail';

/**
 * Every staff-only route that changes something, with its audit action: refusals and failures are
 * audited here as well as successes where the action is applied (docs/operations.md lists where
 * each row is written). test/unit/staff-routes-audited.test.ts walks the OpenAPI document and
 * fails on a staff-only route that is neither here nor in STAFF_ROUTES_CHANGING_NOTHING.
 */
export const STAFF_ACTIONS: Record<string, { action: string; target?: string }> = {
  'POST /v1/backoffice/operations/{id}/approve': { action: 'operation.approve', target: 'operation' },
  'POST /v1/backoffice/operations/{id}/deny': { action: 'operation.deny', target: 'operation' },
  'POST /v1/backoffice/operations/{id}/cancel': { action: 'operation.cancel', target: 'operation' },
  'POST /v1/backoffice/operations/{id}/retry-disbursement': { action: 'operation.retry_disbursement', target: 'operation' },
  'POST /v1/backoffice/operations/{id}/contract/send-for-signature': { action: 'operation.send_for_signature', target: 'operation' },
  'POST /v1/backoffice/titles/{id}/payer-payments': { action: 'title.payer_payment', target: 'title' },
  'POST /v1/backoffice/users': { action: 'user.invite' },
  'PATCH /v1/backoffice/users/{id}': { action: 'user.change', target: 'user' },
  'POST /v1/backoffice/role-grants/{id}/confirm': { action: 'role_grant.confirm', target: 'role_grant' },
  'POST /v1/backoffice/codec/decode': { action: 'codec.decode' },
  'POST /v1/backoffice/collection/sweep': { action: 'collection.sweep' },
  'POST /v1/backoffice/ledger/reconcile': { action: 'ledger.reconcile' },
  'POST /v1/backoffice/registrations/reconcile': { action: 'registration.reconcile' },
  'POST /v1/backoffice/ledger/reconciliations/{id}/accept': { action: 'ledger.reconciliation_accept', target: 'ledger_reconciliation' },
  'POST /v1/backoffice/test-clocks/{id}/advance': { action: 'test_clock.advance', target: 'test_clock' },
  'POST /v1/backoffice/audit/checkpoints': { action: 'audit.checkpoint' },
};

/** Staff-only routes that are not GETs yet change no record, each with why it needs no audit row. */
export const STAFF_ROUTES_CHANGING_NOTHING: Record<string, string> = {
  'POST /v1/backoffice/codec/session': 'sets a cookie holding the caller\'s own token for Temporal Web; nothing is stored',
  'DELETE /v1/backoffice/codec/session': 'clears that cookie',
  'POST /v1/backoffice/codec/encode': 'seals what the caller sent and answers it; shows no personal data and stores nothing',
};

/** The `{id}` of a path template, read from the request's path segment at the same place. */
function idIn(template: string, path: string): string | undefined {
  const at = template.split('/').indexOf('{id}');
  return at < 0 ? undefined : decodeURIComponent(path.split('/')[at] ?? '');
}

/**
 * A staff action answered with an error still leaves a row: `<action>_refused` for a
 * 4xx (not allowed, wrong state, already approved, bad input) and `<action>_failed` for a 5xx,
 * with the status and the error code only, never the request body, which can carry what the
 * refusal was about (an amount, a note) but also what must not be kept. Requests without a staff
 * user (no token, a revoked one, a client token) are not staff actions: the sign-in audit and
 * the logs cover them. Postgres being unavailable leaves no row: there is nowhere to write it.
 */
export function auditRefusals(audit: AuditTrail, logger: Logger) {
  return async (req: Request, error: AppError): Promise<void> => {
    const route = req.ctx?.route;
    const known = route && STAFF_ACTIONS[`${route.method} ${route.pathTemplate}`];
    if (!known || req.ctx.principal?.tokenType !== 'user' || errorCode(error) === 'database_unavailable') return;
    const id = idIn(route.pathTemplate, req.path);
    try {
      await audit.record(req, {
        action: `${known.action}_${error.status >= 500 ? 'failed' : 'refused'}`,
        target: known.target && id ? { type: known.target, id } : undefined,
        after: { status: error.status, code: errorCode(error) },
      });
    } catch (err) {
      logger.error('audit row of a refused staff action not written', { request_id: req.ctx.requestId, action: known.action, err: (err as Error).message });
    }
  };
}
