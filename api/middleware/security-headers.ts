import type { Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import type { Config } from '../../platform/config/config';

/**
 * The HTTP posture of every response, by helmet: `nosniff`; a CSP that allows
 * nothing and forbids framing, which is what JSON needs and the floor for any HTML (a page that
 * needs more sets its own policy on its route); `X-Frame-Options: DENY` for older browsers; HSTS
 * only when configured, i.e. when the service is reached over TLS.
 */
export function securityHeaders(http: Config['http']): RequestHandler {
  const policy = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"], formAction: ["'none'"] },
    },
    xFrameOptions: { action: 'deny' },
    strictTransportSecurity: http.hstsMaxAgeSeconds > 0 ? { maxAge: http.hstsMaxAgeSeconds, includeSubDomains: true } : false,
  });
  const { set, removed } = headersOf(policy);
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of set) res.setHeader(name, value);
    next();
  };
}

/**
 * What a helmet policy does to a response, worked out once: every directive here is a constant
 * (no per-request nonce), so eleven middlewares per request (a tenth of the fixed cost of a
 * request in the profile) reduce to setting the same headers.
 */
function headersOf(policy: RequestHandler): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  let done = false;
  const recorder = {
    setHeader: (name: string, value: string) => { set.push([name, value]); },
    removeHeader: (name: string) => { removed.push(name); },
  };
  // helmet only sets and removes headers on the response: a recorder of those two calls is all it is given.
  void policy({} as Request, recorder as unknown as Response, (err?: unknown) => {
    if (err) throw err;
    done = true;
  });
  if (!done) throw new Error('the security header policy did not finish at once: it cannot be worked out in advance');
  return { set, removed };
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
