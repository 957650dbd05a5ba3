import { errors, json, jsonBody } from '../openapi/helpers';

/** Verified by api/middleware/provider-signature.ts before anything else; no token. */
const PROVIDER_SIGNED = [{ providerSignature: [], providerTimestamp: [] }];
const providerHint = { type: 'object', additionalProperties: true };
const CALLBACK_SIGNATURE = 'Signed by the provider: `X-Provider-Timestamp` (Unix seconds) and `X-Provider-Signature: v1=<hex HMAC-SHA256 of "<timestamp>.<raw body>">` '
  + 'with the provider\'s secret. Missing, wrong or older than 5 minutes: 401. A replayed signature is accepted and does nothing. Own per-IP rate limit.';
const accepted = { 202: json('Accepted: the workflow re-reads the provider', { type: 'object', properties: { accepted: { type: 'boolean' } } }) };

export const providerCallbackPaths = {
  '/v1/internal/esign/callback': {
    post: {
      operationId: 'esignCallback', tags: ['internal'], summary: 'E-sign provider callback (a hint: a signer signed)', security: PROVIDER_SIGNED, 'x-rate-limit': 'callback',
      description: `For the provider only; a hint that wakes the operation's workflow, which re-reads the provider itself. ${CALLBACK_SIGNATURE}`,
      requestBody: jsonBody(providerHint),
      responses: { ...accepted, ...errors(401, 422, 429) },
    },
  },
  '/v1/internal/pix/callback': {
    post: {
      operationId: 'pixCallback', tags: ['internal'], summary: 'PIX provider callback (a hint: a payment settled or was refused)', security: PROVIDER_SIGNED, 'x-rate-limit': 'callback',
      description: `For the provider only; a hint that wakes the operation's workflow, which re-reads the provider itself. ${CALLBACK_SIGNATURE}`,
      requestBody: jsonBody(providerHint),
      responses: { ...accepted, ...errors(401, 422, 429) },
    },
  },
};
