import type { RequestHandler } from 'express';
import helmet from 'helmet';
import type { Config } from '../../db/config';

/**
 * The HTTP posture of every response, by helmet (issue #13): `nosniff`; a CSP that allows
 * nothing and forbids framing, which is what JSON needs and the floor for any HTML (a page that
 * needs more sets its own policy on its route); `X-Frame-Options: DENY` for older browsers; HSTS
 * only when configured, i.e. when the service is reached over TLS.
 */
export function securityHeaders(http: Config['http']): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: http.hstsMaxAgeSeconds > 0 ? { maxAge: http.hstsMaxAgeSeconds, includeSubDomains: true } : false,
  });
}

/**
 * Responses that carry a credential, a secret or decoded personal data: tokens, webhook secrets,
 * `sign_url`s, codec output. No cache (shared or private) may keep them.
 */
const CARRIES_SECRETS = new Set([
  'createToken', 'login', 'createWebhook', 'rotateWebhookSecret', 'getContractSigners', 'sendContractForSignature', 'codecDecode', 'codecEncode', 'codecSession',
]);

export function noStoreForSecrets(): RequestHandler {
  return (req, res, next) => {
    if (req.ctx.route && CARRIES_SECRETS.has(req.ctx.route.operationId)) res.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
    next();
  };
}
