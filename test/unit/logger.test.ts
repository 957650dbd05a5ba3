import { expect } from 'chai';
import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger } from '../../platform/logger';

/** Collects the JSON lines the logger writes, exactly as they would reach stdout. */
function capture(logger: winston.Logger): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } });
  logger.add(new winston.transports.Stream({ stream }));
  return lines;
}

describe('logger', () => {
  it('redacts secrets by key, at any depth, and tokens and signing links inside strings', () => {
    const logger = createLogger('info', 'test');
    const lines = capture(logger);
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    logger.info('login', {
      password: 'hunter2', body: { client_secret: 'sk_live_x', nested: [{ hmac_secret: 'whsec' }], sign_url: 'http://s/esign/sign/tok' },
      note: `Bearer ${jwt} and http://sandbox/esign/sign/abcDEF123`, signer_token: 'st', Authorization: `Bearer ${jwt}`,
      collection: { tls: { certPem: 'client-cert', keyPem: 'client-key-pem' } },
    });
    const text = JSON.stringify(lines);
    for (const secret of ['hunter2', 'sk_live_x', 'whsec', jwt, 'abcDEF123', '"st"', '/sign/tok', 'client-key-pem']) expect(text).to.not.include(secret);
    const line = lines[0] as any;
    expect(line.password).to.equal('[REDACTED]');
    expect(line.body.nested[0].hmac_secret).to.equal('[REDACTED]');
    expect(line.note).to.equal('Bearer [REDACTED] and http://sandbox/esign/sign/[REDACTED]');
  });
});
