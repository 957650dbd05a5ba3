/** The contract's Idempotency-Key length: the middleware refuses others, and the OpenAPI document states the same bounds. */
export const IDEMPOTENCY_KEY_LENGTH = { min: 16, max: 80 };
