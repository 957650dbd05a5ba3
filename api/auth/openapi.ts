import { anyTokenSecurity, errors, json, jsonBody } from '../openapi/helpers';
import { SERVER_METADATA_PATH } from './server-metadata';

const tokenResponse = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in', 'scopes', 'scope'],
  properties: {
    access_token: { type: ['string', 'null'], description: 'RS256 JWT (null in an idempotent replay, never here in practice)' },
    token_type: { const: 'bearer' },
    expires_in: { type: 'integer', examples: [900] },
    scopes: { type: 'array', items: { type: 'string' } },
    scope: { type: 'string', description: 'The same scopes, space-separated (RFC 6749 §5.1)', examples: ['operation:read stock:read'] },
  },
};

const clientFields = {
  client_id: { type: 'string', minLength: 1, maxLength: 200 },
  client_secret: { type: 'string', minLength: 1, maxLength: 500 },
};
const scope = { type: 'string', maxLength: 2000, description: 'Optional OAuth-style space-separated subset of the credential\'s scopes' };

const oauthError = {
  allOf: [
    { $ref: '#/components/schemas/ErrorEnvelope' },
    {
      type: 'object',
      required: ['error', 'error_description'],
      properties: {
        error: { enum: ['invalid_client', 'invalid_scope', 'invalid_request', 'unsupported_grant_type'], description: 'RFC 6749 §5.2 error code' },
        error_description: { type: 'string', description: 'The contract\'s code or message, in the characters RFC 6749 allows' },
      },
    },
  ],
};
/** The token endpoint's refusals carry RFC 6749 §5.2's fields beside the contract's `detail`. */
const tokenErrors = {
  401: {
    description: 'invalid_client: the client credentials are missing or wrong. With HTTP Basic, a `WWW-Authenticate: Basic` challenge (RFC 6749 §5.2)',
    headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
    content: { 'application/json': { schema: oauthError } },
  },
  403: json('invalid_scope: scope_not_allowed, a requested scope the credential does not have', oauthError),
  422: json('invalid_request (or unsupported_grant_type): a schema failure', oauthError),
  ...errors(429),
};

export const authPaths = {
  [SERVER_METADATA_PATH]: {
    get: {
      operationId: 'authorizationServerMetadata', tags: ['auth'], summary: 'OAuth2 authorization server metadata (RFC 8414)', security: [], 'x-rate-limit': 'exempt',
      description: 'Public and not rate limited: what OAuth2 client libraries discover (openid-client, oauth4webapi, Spring Security...): the issuer (this api\'s public address), '
        + 'the token endpoint, the JWKS, the client credentials grant, the client authentication methods (HTTP Basic or the body) and the scopes.',
      responses: {
        200: json('Authorization server metadata', {
          type: 'object',
          required: ['issuer', 'token_endpoint', 'jwks_uri', 'grant_types_supported', 'token_endpoint_auth_methods_supported', 'scopes_supported', 'response_types_supported'],
          properties: {
            issuer: { type: 'string', format: 'uri' },
            token_endpoint: { type: 'string', format: 'uri' },
            jwks_uri: { type: 'string', format: 'uri' },
            grant_types_supported: { type: 'array', items: { type: 'string' } },
            token_endpoint_auth_methods_supported: { type: 'array', items: { type: 'string' } },
            scopes_supported: { type: 'array', items: { type: 'string' } },
            response_types_supported: { type: 'array', items: { type: 'string' }, maxItems: 0, description: 'None: there is no authorization endpoint' },
            service_documentation: { type: 'string', format: 'uri' },
          },
        }),
        ...errors(422),
      },
    },
  },
  '/v1/auth/token': {
    post: {
      operationId: 'createToken', tags: ['auth'], summary: 'Exchange API credentials for a JWT',
      description: 'JSON with client_id and client_secret, or the OAuth2 client credentials grant (RFC 6749 §4.4): a form-urlencoded body with '
        + 'grant_type=client_credentials and the client either in the body or in HTTP Basic (§2.3.1), never both. Same responses, rate limit and redaction. '
        + 'The token carries the credential\'s scopes, or the subset asked for in `scopes` / `scope`; 401 when the credentials are wrong, 403 scope_not_allowed when a requested scope is not granted.',
      security: [{}, { clientBasic: [] }],
      'x-rate-limit': 'auth_token',
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['client_id', 'client_secret'],
              properties: {
                grant_type: { const: 'client_credentials' },
                ...clientFields,
                scopes: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 100 }, description: 'Optional subset of the credential\'s scopes' },
                scope,
              },
            },
          },
          'application/x-www-form-urlencoded': {
            schema: {
              type: 'object',
              required: ['grant_type'],
              properties: { grant_type: { const: 'client_credentials' }, ...clientFields, scope },
              description: 'client_id and client_secret here, or both in HTTP Basic instead',
            },
          },
        },
      },
      responses: { 200: json('Token issued', tokenResponse), ...tokenErrors },
    },
  },
  '/v1/auth/login': {
    post: {
      operationId: 'login', tags: ['auth'], summary: 'User session (backoffice staff, portal users)', security: [],
      description: 'Email and password of a backoffice or portal user. 401 invalid_credentials on a wrong email or password; 423 only when the password is right but the account is locked after repeated failures '
        + '(counted apart for the addresses the account signed in from in the last 30 days and for all others: failures from elsewhere do not lock the owner out at its own address). '
        + 'Each failure during a lock extends it (doubling, up to a day). 429 per address (10 a minute) and per account: 20 attempts an hour for one e-mail from one address, '
        + 'and 200 an hour for it from all the addresses it has not signed in from in the last 30 days together (`scope` `account`, `window_seconds` 3600, with `Retry-After`). '
        + 'A user with TOTP: without `totp` 401 mfa_required, answered only when the password is right; a wrong or already used code is the same 401 invalid_credentials '
        + 'as a wrong password and counts toward the lock. In production an approver or admin without TOTP gets 401 mfa_enrolment_required.',
      'x-rate-limit': 'login',
      requestBody: jsonBody({
        type: 'object',
        required: ['email', 'password'],
        properties: {
          email: { type: 'string', minLength: 1, maxLength: 320 }, password: { type: 'string', minLength: 1, maxLength: 500 },
          totp: { type: 'string', minLength: 1, maxLength: 10, description: 'The current 6-digit code of the user\'s authenticator (RFC 6238: SHA-1, 30 s), required once the user has TOTP' },
        },
      }),
      responses: {
        200: json('Session token', {
          ...tokenResponse,
          required: [...tokenResponse.required, 'user'],
          properties: { ...tokenResponse.properties, user: { type: 'object', properties: { roles: { type: 'array', items: { type: 'string', enum: ['viewer', 'analyst', 'approver', 'admin'] }, description: 'Staff roles (each a set of backoffice scopes); empty for portal users' } } } },
        }),
        ...errors(401, 422, 423, 429, 503),
      },
    },
  },
  '/v1/auth/me': {
    get: {
      operationId: 'me', tags: ['auth'], summary: 'Who the token belongs to', security: anyTokenSecurity(),
      description: 'Any valid token: the principal behind it (client credential or user), its originator and scopes.',
      responses: { 200: json('Identity (free-form)', { type: 'object' }), ...errors(401, 429) },
    },
  },
};
