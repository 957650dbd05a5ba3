import { Request, Router, RequestHandler } from 'express';
import type { AuditTrail } from '../audit/audit-trail';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { Forbidden, RuleViolation } from '../../domain/errors';
import { CipherKeyError } from '../../platform/crypto/cipher-ring';
import { handle, ok } from '../http/handle';
import { body } from '../http/request-helpers';

export const CODEC_PATH = '/v1/backoffice/codec';
/** Temporal Web cannot add our token to its calls; with "include credentials" it sends this cookie. */
const SESSION_COOKIE = 'codec_session';

function sessionCookie(req: Request): string | undefined {
  for (const part of (req.get('Cookie') ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value.length > 0) return value.join('=');
  }
  return undefined;
}

interface JsonPayload {
  metadata?: Record<string, string>;
  data?: string;
}

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});

const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

/**
 * The origin this connection reached the api at, read from the socket, never from the `Host`
 * header a client writes: the console's own origin when it talks to the api directly (dev, tests);
 * behind a proxy the configured public origin is the console's.
 */
function reachedOrigin(req: Request): string {
  const address = (req.socket.localAddress ?? '').replace(/^::ffff:/, '');
  const host = address.includes(':') ? `[${address}]` : address;
  return `http://${host}:${req.socket.localPort}`;
}

/**
 * CORS for Temporal Web, ahead of route resolution so the browser's preflight is answered: only
 * the configured origins, with credentials (the operator's token). A request from any other
 * origin is refused in the envelope; one without `Origin` (the Temporal CLI) or from the api's own
 * origin (the console) goes on to authentication.
 */
export function codecCors(allowedOrigins: string[], namespace: string, publicOrigin: string): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('Origin');
    // The console, on the api's own origin, opens and closes the session: a same-origin call needs no CORS.
    const sameOrigin = origin !== undefined && (origin === publicOrigin || origin === reachedOrigin(req));
    if (origin !== undefined && !sameOrigin) {
      if (!allowed.has(origin)) return next(new Forbidden({ code: 'origin_not_allowed', message: 'This origin may not call the codec endpoint' }));
      res.set({ 'Access-Control-Allow-Origin': origin, 'Access-Control-Allow-Credentials': 'true' });
    }
    if (req.method === 'OPTIONS') {
      res.set({
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, X-Namespace',
        'Access-Control-Max-Age': '600',
      });
      return res.status(204).end();
    }
    const asked = req.get('X-Namespace');
    if (asked !== undefined && asked !== namespace) return next(new Forbidden({ code: 'namespace_not_served', message: `This codec serves namespace ${namespace}` }));
    // The session cookie carries the operator's own token: authentication checks it like any Bearer.
    const session = sessionCookie(req);
    if (req.get('Authorization') === undefined && session) req.headers.authorization = `Bearer ${session}`;
    next();
  };
}

/**
 * Temporal's remote codec protocol (`/encode`, `/decode`), for operators with `backoffice:operate`,
 * and `/session`, which turns the operator's token into an HttpOnly, SameSite=Strict cookie scoped
 * to the codec path, for Temporal Web on the same site with "include cross-origin credentials".
 */
export function codecRoutes(codec: PayloadCodec, audit: AuditTrail, session: { maxAgeSeconds: number; secure: boolean }): Router {
  const router = Router();
  const cookie = (value: string, maxAgeSeconds: number) => [
    `${SESSION_COOKIE}=${value}`, `Path=${CODEC_PATH}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict', ...(session.secure ? ['Secure'] : []),
  ].join('; ');
  router.post(`${CODEC_PATH}/session`, handle(async (req) => {
    const token = req.get('Authorization')!.split(' ')[1];
    return { status: 204, headers: { 'Set-Cookie': cookie(token, session.maxAgeSeconds) } };
  }));
  // Signing out of the console ends Temporal Web's decoding with it.
  router.delete(`${CODEC_PATH}/session`, handle(async () => ({ status: 204, headers: { 'Set-Cookie': cookie('', 0) } })));
  const through = (direction: 'encode' | 'decode') => handle(async (req) => {
    try {
      const payloads = await codec[direction](body<'codecDecode' | 'codecEncode'>(req).payloads.map(fromJson));
      // A decode shows personal data to a person: who, when and how much is audited (never the payloads).
      if (direction === 'decode') await audit.record(req, { action: 'codec.decode', after: { payloads: payloads.length } });
      return ok({ payloads: payloads.map(toJson) });
    } catch (err) {
      if (err instanceof CipherKeyError) {
        throw new RuleViolation({ code: 'payload_not_decodable', message: 'A payload could not be opened with the service\'s key ring' });
      }
      throw err;
    }
  });
  router.post(`${CODEC_PATH}/decode`, through('decode'));
  router.post(`${CODEC_PATH}/encode`, through('encode'));
  return router;
}
