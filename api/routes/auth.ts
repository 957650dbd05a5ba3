import { Router } from 'express';
import type { AuthService } from '../auth/auth-service';
import { handle, ok } from '../http/handle';

function requestedScopes(body: { scopes?: string[]; scope?: string }): string[] | null {
  if (body.scopes) return body.scopes;
  if (body.scope !== undefined) return body.scope.split(/\s+/).filter(Boolean);
  return null;
}

export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router.post('/v1/auth/token', handle(async (req) =>
    ok(await auth.exchangeClientCredentials(req.body.client_id, req.body.client_secret, requestedScopes(req.body)))));

  router.post('/v1/auth/login', handle(async (req) => ok(await auth.login(req.body.email, req.body.password))));

  router.get('/v1/auth/me', handle(async (req) => {
    const p = req.ctx.principal!;
    return ok(p.tokenType === 'client'
      ? { token_type: 'client', credential_id: p.credentialId, client_id: p.clientId, originator_id: p.originatorId, env: p.env, scopes: p.scopes }
      : { token_type: 'user', user_id: p.userId, email: p.email, kind: p.userKind, originator_id: p.originatorId, scopes: p.scopes });
  }));
  return router;
}
