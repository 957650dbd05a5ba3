import { expect } from 'chai';
import { canonicalJson } from '../../domain/canonical-json';
import { requestHash } from '../../api/middleware/idempotency-body';
import { auditHash, AuditFields, GENESIS_HASH } from '../../domain/audit-chain';

describe('canonical JSON (domain/canonical-json.ts), the text every stored hash covers', () => {
  it('sorts object keys at every depth and drops undefined properties, keeping array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).to.equal('{"a":{"d":[2,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).to.equal('null');
    expect(canonicalJson([undefined, null])).to.equal('[null,null]');
  });

  it('writes a Date as its ISO string, as JSON does, never as an empty object', () => {
    const at = new Date('2026-11-28T10:00:00.123Z');
    expect(canonicalJson({ at })).to.equal('{"at":"2026-11-28T10:00:00.123Z"}');
    expect(canonicalJson([at])).to.equal('["2026-11-28T10:00:00.123Z"]');
  });

  it('gives an idempotency key one request hash whether a moment is a Date or its ISO text, and distinct moments distinct hashes', () => {
    const iso = '2026-11-28T10:00:00.000Z';
    expect(requestHash({ at: new Date(iso) })).to.equal(requestHash({ at: iso }));
    expect(requestHash({ at: new Date(iso) })).to.not.equal(requestHash({ at: new Date('2026-11-29T10:00:00.000Z') }));
  });

  it('keeps the audit chain\'s hash independent of key order inside before/after', () => {
    const row = (after: unknown): AuditFields => ({
      id: 'a1', occurredAt: new Date('2026-11-28T10:00:00Z'), actor: { type: 'system', id: 'x' }, action: 'test',
      target: null, ip: null, userAgent: null, requestId: null, before: null, after,
    });
    expect(auditHash(row({ x: 1, y: new Date(0) }), GENESIS_HASH)).to.equal(auditHash(row({ y: new Date(0), x: 1 }), GENESIS_HASH));
    expect(auditHash(row({ y: new Date(0) }), GENESIS_HASH)).to.not.equal(auditHash(row({ y: new Date(1) }), GENESIS_HASH));
  });
});
