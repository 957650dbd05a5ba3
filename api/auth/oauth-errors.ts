import { AppError, Forbidden, NotAuthenticated, ValidationFailed } from '../../domain/errors';

/** The protection space named in our challenges (RFC 7235 §2.2). */
const REALM = 'receivables-anticipation-api';

/** RFC 6749 §5.2 and RFC 6750 §3 allow only %x20-21 / %x23-5B / %x5D-7E in error_description. */
const describable = (text: string) => text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "'");

const descriptionOf = (error: AppError) => describable(typeof error.detail === 'string' ? error.detail : error.detail.message ?? error.detail.code);

/**
 * A token-endpoint refusal as OAuth2 clients read it: the contract's `detail` envelope unchanged,
 * with RFC 6749 §5.2's `error` and `error_description` beside it.
 */
class TokenEndpointError extends AppError {
  constructor(private readonly original: AppError, readonly error: string, headers: Record<string, string>) {
    super(original.status, original.detail, { ...original.headers, ...headers });
  }

  override toBody() {
    return { ...this.original.toBody(), error: this.error, error_description: descriptionOf(this.original) };
  }
}

function oauthErrorCode(error: AppError): string | null {
  if (error.status === 401) return 'invalid_client';
  if (error.status === 403) return 'invalid_scope';
  if (error instanceof ValidationFailed) {
    return error.errors.some((e) => e.loc[0] === 'body' && e.loc[1] === 'grant_type') ? 'unsupported_grant_type' : 'invalid_request';
  }
  return null;
}

/**
 * RFC 6749 §5.2 on `POST /v1/auth/token`: 401s are `invalid_client` (with a Basic challenge when
 * the client authenticated with HTTP Basic, which the RFC requires), 403 scope_not_allowed is
 * `invalid_scope`, 422s are `invalid_request` (or `unsupported_grant_type`). Statuses stay the
 * contract's; other refusals (429, 5xx) have no OAuth2 code and are left as they are.
 */
export function tokenEndpointError(error: AppError, clientUsedBasic: boolean): AppError {
  const code = oauthErrorCode(error);
  if (code === null) return error;
  const challenge: Record<string, string> = code === 'invalid_client' && clientUsedBasic
    ? { 'WWW-Authenticate': `Basic realm="${REALM}", error="invalid_client", error_description="${descriptionOf(error)}"` }
    : {};
  return new TokenEndpointError(error, code, challenge);
}

/**
 * RFC 6750 §3 on a protected route's 401: a request that sent no credential gets the bare Bearer
 * challenge (§3.1: no error code); one whose token or credential was refused gets `invalid_token`.
 */
export function withBearerChallenge(error: NotAuthenticated): NotAuthenticated {
  const code = error.detail as string;
  const challenge = code === 'not_authenticated'
    ? `Bearer realm="${REALM}"`
    : `Bearer realm="${REALM}", error="invalid_token", error_description="${describable(code)}"`;
  return new NotAuthenticated(code, { ...error.headers, 'WWW-Authenticate': challenge });
}

/**
 * RFC 6750 §3.1 on a protected route's scope refusal: the 403's challenge names in `scope` the
 * scopes the refusal's `required` lists, so a client learns which to ask for.
 */
export function scopeRefusal(detail: { code: string; required: string[]; [field: string]: unknown }): Forbidden {
  return new Forbidden(detail, {
    'WWW-Authenticate': `Bearer realm="${REALM}", error="insufficient_scope", error_description="${describable(detail.code)}", scope="${detail.required.join(' ')}"`,
  });
}
