import { NotAuthenticated, ValidationFailed } from '../../domain/errors';
import type { RequestBody } from '../openapi/contract-types';

export interface TokenRequest {
  clientId: string;
  clientSecret: string;
  /** Null: every scope of the credential. */
  scopes: string[] | null;
}

/** JSON or form-urlencoded, as the document accepts either. */
type TokenBody = RequestBody<'createToken'>;

/** RFC 6749 §2.3.1: the client id and secret are each form-urlencoded, then joined by a colon, in Basic. */
function fromBasic(header: string): { clientId: string; clientSecret: string } {
  const decoded = Buffer.from(header.slice('basic '.length).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new NotAuthenticated('invalid_client_credentials');
  const unescape = (part: string) => {
    try {
      return decodeURIComponent(part.replace(/\+/g, ' '));
    } catch {
      throw new NotAuthenticated('invalid_client_credentials');
    }
  };
  return { clientId: unescape(decoded.slice(0, colon)), clientSecret: unescape(decoded.slice(colon + 1)) };
}

/**
 * The client and the scopes asked for, from a token request in any accepted form: JSON or
 * form-urlencoded (`grant_type=client_credentials`, RFC 6749 §4.4), with the client in the body or
 * in HTTP Basic (§2.3.1) — one or the other, never both.
 */
export function readTokenRequest(body: TokenBody, authorization: string | undefined): TokenRequest {
  const listed = 'scopes' in body ? body.scopes : undefined;
  const scopes = listed ?? (body.scope !== undefined ? body.scope.split(/\s+/).filter(Boolean) : null);
  if (authorization !== undefined && /^basic /i.test(authorization)) {
    if (body.client_secret !== undefined) {
      throw ValidationFailed.field(['body', 'client_secret'], 'Authenticate the client in the body or in HTTP Basic, not both', 'value_error');
    }
    const basic = fromBasic(authorization);
    if (body.client_id !== undefined && body.client_id !== basic.clientId) {
      throw ValidationFailed.field(['body', 'client_id'], 'client_id differs from the client of the HTTP Basic header', 'value_error');
    }
    return { ...basic, scopes };
  }
  if (!body.client_id || !body.client_secret) throw new NotAuthenticated('missing_client_credentials');
  return { clientId: body.client_id, clientSecret: body.client_secret, scopes };
}

/**
 * The client a token request names, for its per-client budget; null when it names none the exchange could read.
 * The budget is drawn before the validator runs, so the body is not yet known to be either of the
 * document's: it is read as the exchange would read it, and whatever that cannot read names no client.
 */
export function requestedClientId(body: unknown, authorization: string | undefined): string | null {
  try {
    return String(readTokenRequest((body ?? {}) as TokenBody, authorization).clientId);
  } catch {
    return null;
  }
}
