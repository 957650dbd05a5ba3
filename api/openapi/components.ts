import { BACKOFFICE_SCOPES, CLIENT_SCOPES } from '../../domain/principal';
import { IDEMPOTENCY_KEY_LENGTH } from '../../domain/idempotency-key';
import { SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../../domain/provider-signature';
import { ref } from './helpers';
import { checkedByHandler } from './handler-checked';

/**
 * The JSON numbers `domain/money-input.ts` reads as amounts: at most 15 significant digits (beyond
 * them the number is no longer the one the client wrote) and at most 2 decimals. As `multipleOf`
 * these are exact only to a validator that reads the decimal written (schemathesis does); Prism,
 * Ajv and most others divide binary floats and refuse 0.07 or 33.33. So the document states the
 * grid as the extension `x-number-grid` (the handler enforces it), and the fuzz hooks turn it back
 * into `multipleOf` for schemathesis.
 */
export const NUMBER_GRID_EXTENSION = 'x-number-grid';
export const MONEY_NUMBER_GRID = [
  { multipleOf: 0.01, maximum: 9_999_999_999_999.99 },
  { multipleOf: 0.1, maximum: 99_999_999_999_999.9 },
  { multipleOf: 1, maximum: 999_999_999_999_999 },
];
/** Rates: at most 4 decimals, up to 100. */
export const RATE_NUMBER_GRID = [{ multipleOf: 0.0001, maximum: 100 }];

/**
 * The strings `parseDecimal` accepts: not negative (but `-0` is zero), at most 16 digits before the
 * point, at most 2 decimals for money and 4 (up to 100) for rates, trailing zeros beyond them.
 * No lookaround, so regex-driven generators (schemathesis, hypothesis) can produce them.
 */
const NEGATIVE_ZERO = '-0+(?:\\.0+)?';
export const MONEY_PATTERN = `^(?:0*\\d{1,16}(?:\\.\\d{1,2}0*)?|${NEGATIVE_ZERO})$`;
export const RATE_PATTERN = `^(?:0*(?:\\d{1,2}(?:\\.\\d{1,4}0*)?|100(?:\\.0+)?)|${NEGATIVE_ZERO})$`;
/**
 * A decimal string's length, leading and trailing zeros included: room for zero-padded fixed-width
 * forms (19 significant characters at most), and a bound the validator enforces (422
 * `string_too_long` at the field) so no amount is a way to send megabytes of zeros.
 */
export const DECIMAL_STRING_MAX_LENGTH = 40;
/** The same strings above zero (`positive` rules: a nonzero digit before the point or among the first decimals). */
export const POSITIVE_MONEY_PATTERN = '^(?:0*[1-9]\\d{0,15}(?:\\.\\d{1,2}0*)?|0+\\.(?:[1-9]\\d?|0[1-9])0*)$';
export const POSITIVE_RATE_PATTERN = '^0*(?:[1-9]\\d?(?:\\.\\d{1,4}0*)?|0\\.(?:[1-9]\\d{0,3}|0[1-9]\\d{0,2}|00[1-9]\\d?|000[1-9])0*|100(?:\\.0+)?)$';

const scopeDescriptions: Record<string, string> = {
  'stock:read': 'Read stock items',
  'stock:write': 'Register, change and anticipate stock items (also reads)',
  'simulation:create': 'Price receivables without creating anything',
  'operation:create': 'Create and cancel operations',
  'operation:read': 'Read operations and titles',
  'webhook:read': 'Read webhook subscriptions and deliveries',
  'webhook:write': 'Manage webhook subscriptions (also reads)',
  'contract:read': 'Read contract signers',
  'contract:send': 'Dispatch the contract for signature',
  'payable:read': 'Read assignor payables and discount credits',
  'payable:write': 'Create payables, pay them and grant discount credits',
  'event:read': 'List and read the originator\'s events of the last 30 days (granted with the other read scopes)',
  'ledger:read': 'Read the originator\'s ledger: accounts, balances, transactions, trial balance (granted with operation:read or payable:read)',
  'backoffice:read': 'Backoffice: read every originator\'s queue',
  'backoffice:decide': 'Backoffice: approve and deny operations (role approver)',
  'backoffice:configure': 'Backoffice: policies and limits',
  'backoffice:operate': 'Backoffice: decode Temporal payloads (the codec endpoint Temporal Web calls)',
  'backoffice:act': 'Backoffice: record payer payments, send a contract again, retry a PIX disbursement (roles analyst and approver)',
  'backoffice:admin': 'Backoffice: staff accounts and the audit trail (role admin)',
};

/** The idempotency middleware checks these bounds itself (422 idempotency_key_invalid) before the validator runs. */
const idempotencyKeySchema = { type: 'string', minLength: IDEMPOTENCY_KEY_LENGTH.min, maxLength: IDEMPOTENCY_KEY_LENGTH.max };

export const components = (publicUrl: string) => ({
  securitySchemes: {
    clientCredentials: {
      type: 'oauth2',
      description: 'RS256 JWT from `POST /v1/auth/token` (the OAuth2 client credentials grant, or the same exchange as JSON), sent as '
        + '`Authorization: Bearer <token>`. Token type `client`. The tokens follow RFC8725 (JSON Web Token Best Current Practices): RS256 only '
        + '(`none` and HMAC refused), a `kid` resolved against the JWKS, `aud` and `exp` always checked, 15 minutes of life. '
        + 'They are RFC 9068 access tokens: header `typ: at+jwt`, `iss` the authorization server metadata\'s `issuer` (PUBLIC_URL), '
        + '`scope` the granted scopes space-separated (beside the `scopes` array).',
      flows: { clientCredentials: { tokenUrl: `${publicUrl}/v1/auth/token`, scopes: Object.fromEntries(CLIENT_SCOPES.map((s) => [s, scopeDescriptions[s]])) } },
    },
    // Not an OAuth2 password grant: login takes JSON `email` and `password`, so no flow is claimed.
    userSession: {
      type: 'http', scheme: 'bearer', bearerFormat: 'JWT',
      description: `RS256 JWT from \`POST /v1/auth/login\` (JSON email and password), token type \`user\` (backoffice staff and portal users), `
        + `following RFC8725 and RFC 9068 as the client tokens do. Roles: ${
        BACKOFFICE_SCOPES.map((s) => `\`${s}\` (${scopeDescriptions[s]})`).join(', ')}. `
        + 'Routes asking for these roles also want a staff user: a portal user\'s token is 403 `staff_user_required` there, whatever its scopes.',
    },
    clientBasic: {
      type: 'http', scheme: 'basic',
      description: 'Only on `POST /v1/auth/token`: the client_id and client_secret, each form-urlencoded, as Basic user and password (RFC 6749 §2.3.1).',
    },
    legacyClientId: { type: 'apiKey', in: 'header', name: 'X-Client-Id', description: 'Legacy: client id header, with X-Client-Secret' },
    legacyClientSecret: { type: 'apiKey', in: 'header', name: 'X-Client-Secret', description: 'Legacy: client secret header, with X-Client-Id' },
    // The `webhooks` section's security: how a subscriber authenticates our deliveries to it.
    webhookSignature: {
      type: 'apiKey', in: 'header', name: 'webhook-signature',
      description: 'On deliveries to subscribers: Standard Webhooks HMAC-SHA256 of `webhook-id.webhook-timestamp.body` keyed with the subscription secret; verify it before trusting the event',
    },
    // The provider callbacks' proof of origin, checked before the body is read (api/middleware/provider-signature.ts).
    providerSignature: {
      type: 'apiKey', in: 'header', name: SIGNATURE_HEADER,
      description: 'Provider callbacks only: `v1=<hex HMAC-SHA256 of "<X-Provider-Timestamp>.<raw body>">` keyed with the provider\'s callback secret '
        + '(ESIGN_CALLBACK_SECRET or PIX_CALLBACK_SECRET); with providerTimestamp',
    },
    providerTimestamp: {
      type: 'apiKey', in: 'header', name: TIMESTAMP_HEADER,
      description: 'Provider callbacks only: Unix seconds when the provider signed; more than CALLBACK_TOLERANCE_SECONDS (300) away from now is refused',
    },
    serviceSignature: {
      type: 'apiKey', in: 'header', name: 'X-Service-Signature',
      description: 'On deliveries to subscribers: hex HMAC-SHA256 of the raw body keyed with `hmac_secret`, the same check in the project\'s own form',
    },
  },
  headers: {
    'WWW-Authenticate': {
      description: 'On a 401: `Bearer realm="receivables-anticipation-api"` when no credential was sent, with `error="invalid_token"` and the code as '
        + '`error_description` when the token or credential was refused (RFC 6750 §3); on a 403 `scope_insufficient`, '
        + '`Bearer realm="receivables-anticipation-api", error="insufficient_scope", error_description="scope_insufficient", scope="<the scopes of `required`, space-separated>"` '
        + '(RFC 6750 §3.1); on the token endpoint, a `Basic` challenge with '
        + '`error="invalid_client"` when the client authenticated with HTTP Basic (RFC 6749 §5.2).',
      schema: { type: 'string', maxLength: 500 },
    },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key', in: 'header', required: false,
      description: '16 to 80 characters, scoped per originator, kept 24 hours. A UUID is recommended.',
      schema: idempotencyKeySchema,
    },
    IdempotencyKeyRequired: {
      name: 'Idempotency-Key', in: 'header', required: true,
      description: 'Required on this route: 16 to 80 characters, scoped per originator, kept 24 hours.',
      schema: idempotencyKeySchema,
    },
    Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
    Offset: {
      name: 'offset', in: 'query', required: false,
      description: 'Items to skip. Past the last item the page is empty; above 2147483647 the request is a 422.',
      schema: { type: 'integer', minimum: 0, maximum: 2147483647, default: 0 },
    },
  },
  schemas: {
    Money: { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description: 'BRL amount with exactly 2 decimals', examples: ['10000.00'] },
    MoneyInput: checkedByHandler({
      description: 'BRL amount as a JSON number or a string, at most 2 decimals, not negative; `10000` equals `"10000.00"`. '
        + 'A string is plain digits with an optional dot and decimals (no exponent, no comma, at most 16 digits before the point; '
        + 'zeros after the second decimal are accepted; at most 40 characters in all); a JSON number has at most 2 decimals and 15 significant digits (send larger amounts as strings; '
        + '`x-number-grid` states it, the server checks it).',
      type: ['number', 'string'],
      maxLength: DECIMAL_STRING_MAX_LENGTH,
      examples: ['10000.00'],
    }, { pattern: MONEY_PATTERN, minimum: 0, [NUMBER_GRID_EXTENSION]: MONEY_NUMBER_GRID }),
    NullableMoneyInput: { anyOf: [ref('MoneyInput'), { type: 'null' }] },
    PositiveMoneyInput: checkedByHandler({
      description: 'A MoneyInput above zero: `0`, `"0.00"` and `"000"` are refused (greater_than).',
      type: ['number', 'string'],
      maxLength: DECIMAL_STRING_MAX_LENGTH,
      examples: ['10000.00'],
    }, { pattern: POSITIVE_MONEY_PATTERN, exclusiveMinimum: 0, [NUMBER_GRID_EXTENSION]: MONEY_NUMBER_GRID }),
    NullablePositiveMoneyInput: { anyOf: [ref('PositiveMoneyInput'), { type: 'null' }] },
    Date: { type: 'string', format: 'date', examples: ['2027-01-15'] },
    ErrorEnvelope: {
      type: 'object',
      required: ['detail'],
      properties: {
        detail: {
          description: 'A code string (legacy rules, 401...), an object `{code, message, ...}` (structured rules), or `validation_error` with `errors[]`.',
          oneOf: [{ type: 'string' }, ref('StructuredDetail')],
        },
      },
    },
    StructuredDetail: {
      type: 'object',
      required: ['code'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        errors: { type: 'array', items: ref('FieldError') },
      },
      additionalProperties: true,
    },
    FieldError: {
      type: 'object',
      required: ['loc', 'msg', 'type'],
      properties: {
        loc: { type: 'array', items: { type: ['string', 'integer'] } },
        msg: { type: 'string' },
        type: { type: 'string' },
        input: {},
        ctx: { type: 'object' },
      },
    },
  },
});
