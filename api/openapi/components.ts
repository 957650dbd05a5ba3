import { BACKOFFICE_SCOPES, CLIENT_SCOPES } from '../auth/principal';
import { ref } from './helpers';

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
  'backoffice:read': 'Backoffice: read every originator\'s queue',
  'backoffice:decide': 'Backoffice: approve and deny operations, record payer payments',
  'backoffice:configure': 'Backoffice: policies and limits',
};

export const components = (publicUrl: string) => ({
  securitySchemes: {
    clientCredentials: {
      type: 'oauth2',
      description: 'RS256 JWT from `POST /v1/auth/token`, sent as `Authorization: Bearer <token>`. Token type `client`.',
      flows: { clientCredentials: { tokenUrl: `${publicUrl}/v1/auth/token`, scopes: Object.fromEntries(CLIENT_SCOPES.map((s) => [s, scopeDescriptions[s]])) } },
    },
    userSession: {
      type: 'oauth2',
      description: 'RS256 JWT from `POST /v1/auth/login`, token type `user` (backoffice staff and portal users).',
      flows: { password: { tokenUrl: `${publicUrl}/v1/auth/login`, scopes: Object.fromEntries(BACKOFFICE_SCOPES.map((s) => [s, scopeDescriptions[s]])) } },
    },
    legacyClientId: { type: 'apiKey', in: 'header', name: 'X-Client-Id', description: 'Legacy: client id header, with X-Client-Secret' },
    legacyClientSecret: { type: 'apiKey', in: 'header', name: 'X-Client-Secret', description: 'Legacy: client secret header, with X-Client-Id' },
    // The `webhooks` section's security: how a subscriber authenticates our deliveries to it.
    webhookSignature: {
      type: 'apiKey', in: 'header', name: 'webhook-signature',
      description: 'On deliveries to subscribers: Standard Webhooks HMAC-SHA256 of `webhook-id.webhook-timestamp.body` keyed with the subscription secret; verify it before trusting the event',
    },
    serviceSignature: {
      type: 'apiKey', in: 'header', name: 'X-Service-Signature',
      description: 'On deliveries to subscribers: hex HMAC-SHA256 of the raw body keyed with `hmac_secret`, the same check in the project\'s own form',
    },
  },
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key', in: 'header', required: false,
      description: '16 to 80 characters, scoped per originator, kept 24 hours. A UUID is recommended.',
      schema: { type: 'string' },
    },
    IdempotencyKeyRequired: {
      name: 'Idempotency-Key', in: 'header', required: true,
      description: 'Required on this route: 16 to 80 characters, scoped per originator, kept 24 hours.',
      schema: { type: 'string' },
    },
    Limit: { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 200, default: 50 } },
    Offset: { name: 'offset', in: 'query', required: false, schema: { type: 'integer', minimum: 0, default: 0 } },
  },
  schemas: {
    Money: { type: 'string', pattern: '^-?\\d+\\.\\d{2}$', description: 'BRL amount with exactly 2 decimals', examples: ['10000.00'] },
    MoneyInput: {
      description: 'BRL amount as a JSON number or a string, at most 2 decimals, not negative; `10000` equals `"10000.00"`',
      type: ['number', 'string'],
    },
    NullableMoneyInput: { anyOf: [ref('MoneyInput'), { type: 'null' }] },
    Date: { type: 'string', format: 'date' },
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
