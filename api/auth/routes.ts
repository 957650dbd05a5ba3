import { Router } from 'express';
import type { AuthService } from './auth-service';
import { readTokenRequest } from './token-request';
import { handle, ok } from '../http/handle';

export function authRoutes(auth: AuthService): Router {
  const router = Router();

  router.post('/v1/auth/token', handle(async (req) => {
    const { clientId, clientSecret, scopes } = readTokenRequest(req.body ?? {}, req.get('Authorization'));
    return ok(await auth.exchangeClientCredentials(clientId, clientSecret, scopes));
  }));

  router.post('/v1/auth/login', handle(async (req) => ok(await auth.login(req.body.email, req.body.password))));

  router.get('/v1/auth/me', handle(async (req) => {
    const p = req.ctx.principal!;
    return ok(p.tokenType === 'client'
      ? { token_type: 'client', credential_id: p.credentialId, client_id: p.clientId, originator_id: p.originatorId, env: p.env, scopes: p.scopes }
      : { token_type: 'user', user_id: p.userId, email: p.email, kind: p.userKind, originator_id: p.originatorId, scopes: p.scopes });
  }));
  return router;
}
