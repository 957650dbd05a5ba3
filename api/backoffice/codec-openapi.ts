import { errors, json, jsonBody, userSecurity } from '../openapi/helpers';

/**
 * A payload's base64 is at most the default body limit (BODY_LIMIT, 1 MiB): no request body the
 * api reads carries more, and the validator holds a larger limit to it too.
 */
const base64 = { type: 'string', contentEncoding: 'base64', maxLength: 1_048_576 };

/** Temporal's remote codec protocol: `{payloads: [{metadata: {name: base64}, data: base64}]}` both ways. */
const Payloads = {
  type: 'object',
  required: ['payloads'],
  additionalProperties: false,
  properties: {
    payloads: {
      type: 'array',
      maxItems: 1000,
      items: {
        type: 'object',
        properties: {
          metadata: { type: 'object', additionalProperties: base64 },
          data: base64,
        },
      },
    },
  },
};

export const codecSchemas = { CodecPayloads: Payloads };

/**
 * Temporal Web 2.4x sends it on every call (it asks a codec that resolves payloads kept in external
 * storage to leave the references alone); this service keeps no payload outside Temporal, so it is
 * taken and changes nothing. Without it in the document the validator refused every call (422).
 */
const preserveStorageRefs = {
  name: 'preserveStorageRefs', in: 'query', required: false, schema: { type: 'boolean' },
  description: 'Sent by Temporal Web: keep references to externally stored payloads as they are. No payload of this service is stored outside Temporal, so it has no effect.',
};

const codecOperation = (operationId: string, summary: string) => ({
  post: {
    operationId, tags: ['codec'], summary,
    description: 'Called by Temporal Web (CORS, from the configured origins only) and the Temporal CLI. Optional header `X-Namespace` must name the namespace this service uses.',
    security: userSecurity('backoffice:operate'),
    parameters: [preserveStorageRefs],
    requestBody: jsonBody({ $ref: '#/components/schemas/CodecPayloads' }),
    responses: { 200: json('The payloads, through the service\'s payload codec', { $ref: '#/components/schemas/CodecPayloads' }), ...errors(401, 403, 422, 429) },
  },
});

export const codecPaths = {
  '/v1/backoffice/codec/session': {
    post: {
      operationId: 'codecSession', tags: ['codec'], summary: 'Keep the operator\'s token in a cookie for Temporal Web',
      description: 'Sets `codec_session` (HttpOnly, SameSite=Strict, Path=/v1/backoffice/codec, the token\'s lifetime), which the codec routes accept '
        + 'in place of the Authorization header: Temporal Web with "include cross-origin credentials", on the same site as the api, then decodes.',
      security: userSecurity('backoffice:operate'),
      responses: { 204: { description: 'Cookie set' }, ...errors(401, 403, 429) },
    },
    delete: {
      operationId: 'codecSessionEnd', tags: ['codec'], summary: 'End the codec session: Temporal Web shows ciphertext again',
      description: 'Expires `codec_session` (the console calls it when the operator signs out). Authenticated like the codec routes, by the token or the cookie itself.',
      security: userSecurity('backoffice:operate'),
      responses: { 204: { description: 'Cookie expired' }, ...errors(401, 403, 429) },
    },
  },
  '/v1/backoffice/codec/decode': codecOperation('codecDecode', 'Decode Temporal payloads for an operator'),
  '/v1/backoffice/codec/encode': codecOperation('codecEncode', 'Encode Temporal payloads for an operator'),
};
