import { Router } from 'express';
import type { AuthService } from './auth-service';
import { readTokenRequest } from './token-request';
import { handle, ok } from '../http/handle';
import { body } from '../http/request-helpers';
import { AppError } from '../../domain/errors';
import type { AuditTrail } from '../audit/audit-trail';
import { rateLimitAddress } from '../../domain/client-address';

export function authRoutes(auth: AuthService, audit: AuditTrail): Router {
  const router = Router();

  router.post('/v1/auth/token', handle(async (req) => {
    const { clientId, clientSecret, scopes } = readTokenRequest(body<'createToken'>(req), req.get('Authorization'));
    return ok(await auth.exchangeClientCredentials(clientId, clientSecret, scopes));
  }));

  // Every sign-in, refused or not, is in the audit trail under the account tried.
  router.post('/v1/auth/login', handle(async (req) => {
    const sent = body<'login'>(req);
    const email = String(sent.email);
    try {
      // The success's row commits with what the sign-in records (the address made the account's own, the TOTP step spent).
      const session = await auth.login(email, sent.password, sent.totp, rateLimitAddress(req.ip, req.socket.remoteAddress), (trx, userId) =>
        audit.record(req, { action: 'auth.login', actor: { type: 'user', id: userId, email }, target: { type: 'user', id: userId } }, trx));
      return ok(session);
    } catch (err) {
      const outcome = err instanceof AppError ? { status: err.status, detail: err.detail } : { status: 500 };
      await audit.record(req, { action: 'auth.login_failed', actor: { type: 'user', id: 'unknown', email }, after: outcome });
      throw err;
    }
  }));

  router.get('/v1/auth/me', handle(async (req) => {
    const p = req.ctx.principal!;
    return ok(p.tokenType === 'client'
      ? { token_type: 'client', credential_id: p.credentialId, client_id: p.clientId, originator_id: p.originatorId, env: p.env, scopes: p.scopes }
      : { token_type: 'user', user_id: p.userId, email: p.email, kind: p.userKind, originator_id: p.originatorId, scopes: p.scopes });
  }));
  return router;
}
