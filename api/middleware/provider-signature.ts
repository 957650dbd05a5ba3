import express, { Request, RequestHandler } from 'express';
import { randomBytes } from 'node:crypto';
import { NotAuthenticated, ValidationFailed } from '../../domain/errors';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER, verifyProviderSignature } from '../../domain/provider-signature';
import type { Config } from '../../platform/config/config';

/** `pixCollection`: the collection PSP's webhook and the collection sweep's scheduler; `registrar`: the escriturador's webhook. */
export type CallbackProvider = 'esign' | 'pix' | 'pixCollection' | 'registrar';

/**
 * The callback operations and whose secret signs each. Keyed by the operation the route table
 * resolved, not by the path's text: every spelling that reaches a callback handler (a trailing
 * slash, say) is checked, and a spelling that resolves to no route never reaches one.
 */
const CALLBACK_OPERATIONS: Record<string, CallbackProvider> = {
  esignCallback: 'esign',
  pixCallback: 'pix',
  pixCollectionCallback: 'pixCollection',
  pixCollectionSweep: 'pixCollection',
  registrarCallback: 'registrar',
};

const CALLBACK_PATHS = new Set(['/v1/internal/esign/callback', '/v1/internal/pix/callback', '/v1/internal/pix-collection/pix', '/v1/internal/pix-collection/sweep', '/v1/internal/registrar/callback']);

/**
 * A path no route resolves that still spells a callback path once decoded, with its slashes
 * collapsed and its case folded (`//v1/internal/pix/callback`, `%70ix`, `CALLBACK`): answered as an
 * unverified callback, 401, since only the routed spellings are ever verified.
 */
export function spellsCallbackPath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return false;
  }
  return CALLBACK_PATHS.has(decoded.toLowerCase().replace(/\/{2,}/g, '/').replace(/\/+$/, ''));
}

const callbackProvider = (req: Request): CallbackProvider | undefined =>
  req.method === 'POST' && req.ctx.route ? CALLBACK_OPERATIONS[req.ctx.route.operationId] : undefined;

declare module 'express-serve-static-core' {
  interface Request {
    /** Set on a provider callback whose signature verified: the route records it against replays. */
    providerCallback?: { provider: CallbackProvider; signature: string };
  }
}

/**
 * Provider callbacks prove their origin before anything is read or written: the raw body is
 * read here (the JSON parser then leaves it alone), its HMAC and timestamp checked against the
 * provider's secret, and only then parsed. Other routes pass straight through. Runs after the
 * route is resolved.
 */
export function providerSignature(
  config: Config['callbacks'], optional: { collection: string | null; registrar: string | null }, bodyLimit: string, nowSeconds: () => number,
): RequestHandler[] {
  // A provider off (no secret): every signature fails against a secret nobody holds.
  const orNobodys = (secret: string | null) => secret ?? randomBytes(32).toString('hex');
  const secrets: Record<CallbackProvider, string> = {
    esign: config.esignSecret, pix: config.pixSecret, pixCollection: orNobodys(optional.collection), registrar: orNobodys(optional.registrar),
  };
  const raw = express.raw({ type: () => true, limit: bodyLimit });
  const forCallbacks = (handler: RequestHandler): RequestHandler => (req, res, next) => (callbackProvider(req) ? handler(req, res, next) : next());
  return [
    forCallbacks(raw),
    forCallbacks((req, _res, next) => {
      const provider = callbackProvider(req)!;
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const verdict = verifyProviderSignature({
        secret: secrets[provider], signature: req.get(SIGNATURE_HEADER), timestamp: req.get(TIMESTAMP_HEADER), body, nowSeconds: nowSeconds(), toleranceSeconds: config.toleranceSeconds,
      });
      if (!verdict.ok) return next(new NotAuthenticated(verdict.code));
      try {
        req.body = body.length === 0 ? undefined : JSON.parse(body.toString('utf8'));
      } catch {
        return next(new ValidationFailed([{ loc: ['body'], msg: 'JSON decode error', type: 'json_invalid' }], 'Malformed JSON body'));
      }
      req.providerCallback = { provider, signature: verdict.signature };
      next();
    }),
  ];
}
