import type { RequestHandler } from 'express';
import { Forbidden, NotAuthenticated } from '../../domain/errors';
import type { AuthService } from '../auth/auth-service';
import { scopeRefusal, withBearerChallenge } from '../auth/oauth-errors';
import { BACKOFFICE_SCOPES, Principal } from '../../domain/principal';
import type { SecurityRequirement } from '../openapi/route-table';

const SCHEME_TOKEN_TYPE: Record<string, Principal['tokenType']> = {
  clientCredentials: 'client',
  legacyClientId: 'client',
  userSession: 'user',
};

// A route's security is built once (RouteTable), so what it accepts is worked out once per route.
const accepted = new WeakMap<SecurityRequirement[], Set<Principal['tokenType']>>();

function acceptedTokenTypes(security: SecurityRequirement[]): Set<Principal['tokenType']> {
  let types = accepted.get(security);
  if (!types) {
    types = new Set(security.flatMap((req) => Object.keys(req).map((scheme) => SCHEME_TOKEN_TYPE[scheme]).filter(Boolean)));
    accepted.set(security, types);
  }
  return types;
}

/**
 * Establishes who is calling, from a Bearer token or the legacy client headers, as the route's
 * documented security allows. The credential or user is re-read on every request.
 */
export function authenticate(auth: AuthService): RequestHandler {
  return async (req, _res, next) => {
    try {
      const security = req.ctx.route!.security;
      // No requirement, or one naming no scheme of ours: the route is public here (the token exchange
      // reads its Basic client itself; provider callbacks were verified by their signature before).
      if (security.length === 0 || security.some((requirement) => !Object.keys(requirement).some((scheme) => scheme in SCHEME_TOKEN_TYPE))) return next();
      const header = req.get('Authorization');
      const clientId = req.get('X-Client-Id');
      const clientSecret = req.get('X-Client-Secret');
      let principal: Principal;
      if (header !== undefined) {
        const [scheme, token] = header.split(' ');
        if (scheme?.toLowerCase() !== 'bearer' || !token) throw new NotAuthenticated('invalid_token');
        principal = await auth.authenticateBearer(token);
      } else if (clientId !== undefined || clientSecret !== undefined) {
        if (!security.some((req) => 'legacyClientId' in req)) throw new NotAuthenticated('invalid_token_type');
        if (!clientId || !clientSecret) throw new NotAuthenticated('missing_client_credentials');
        principal = await auth.authenticateLegacy(clientId, clientSecret);
      } else {
        throw new NotAuthenticated('not_authenticated');
      }
      if (!acceptedTokenTypes(security).has(principal.tokenType)) throw new NotAuthenticated('invalid_token_type');
      req.ctx.principal = principal;
      next();
    } catch (err) {
      next(err instanceof NotAuthenticated ? withBearerChallenge(err) : err);
    }
  };
}

const STAFF_SCOPES = new Set<string>(BACKOFFICE_SCOPES);
const staffOnly = new WeakMap<SecurityRequirement[], boolean>();

/** A route whose every user alternative asks for a backoffice scope is a staff route (backoffice, codec, deep health). */
function isStaffRoute(security: SecurityRequirement[]): boolean {
  let staff = staffOnly.get(security);
  if (staff === undefined) {
    const userAlternatives = security.filter((requirement) => 'userSession' in requirement);
    staff = userAlternatives.length > 0 && userAlternatives.every((requirement) => requirement.userSession.some((scope) => STAFF_SCOPES.has(scope)));
    staffOnly.set(security, staff);
  }
  return staff;
}

/**
 * The route's scopes, from its OpenAPI security: any one alternative must be fully granted. A
 * staff route also wants a staff user: scopes given to an originator's portal user by mistake do
 * not open it.
 */
export function requireScopes(): RequestHandler {
  return (req, _res, next) => {
    const principal = req.ctx.principal;
    if (!principal) return next();
    if (principal.tokenType === 'user' && principal.userKind !== 'backoffice' && isStaffRoute(req.ctx.route!.security)) {
      return next(new Forbidden({ code: 'staff_user_required', message: 'This route is for backoffice staff; sign in with a staff account' }));
    }
    // The legacy headers name no scopes of their own: they authenticate the same credential, held to the token's scopes.
    const alternatives = req.ctx.route!.security
      .filter((requirement) => !('legacyClientId' in requirement))
      .filter((requirement) => Object.keys(requirement).some((scheme) => SCHEME_TOKEN_TYPE[scheme] === principal.tokenType))
      .map((requirement) => Object.values(requirement).flat());
    if (alternatives.length === 0 || alternatives.some((scopes) => scopes.every((s) => principal.scopes.includes(s)))) return next();
    // One set of scopes is named as required (and in the challenge): the alternative the document lists first.
    const required = alternatives[0];
    next(scopeRefusal({
      code: 'scope_insufficient',
      required,
      granted: principal.scopes,
      message: alternatives.length === 1
        ? `This route requires the scopes: ${required.join(', ')}`
        : `This route requires one of: ${alternatives.map((scopes) => scopes.join(' + ')).join(' or ')}`,
      ...(alternatives.length > 1 ? { accepted_alternatives: alternatives } : {}),
    }));
  };
}
