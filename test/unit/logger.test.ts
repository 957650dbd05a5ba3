import { expect } from 'chai';
import winston from 'winston';
import { createLogger } from '../../api/logger';

class Capture extends winston.Transport {
  readonly lines: Record<string, unknown>[] = [];
  override log(info: Record<string, unknown>, done: () => void): void {
    this.lines.push(info);
    done();
  }
}

describe('logger', () => {
  it('redacts secrets by key, at any depth, and tokens and signing links inside strings', () => {
    const logger = createLogger('info', 'test');
    const capture = new Capture();
    logger.add(capture);
    const jwt = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';
    logger.info('login', {
      password: 'hunter2', body: { client_secret: 'sk_live_x', nested: [{ hmac_secret: 'whsec' }], sign_url: 'http://s/esign/sign/tok' },
      note: `Bearer ${jwt} and http://sandbox/esign/sign/abcDEF123`, signer_token: 'st', Authorization: `Bearer ${jwt}`,
    });
    const text = JSON.stringify(capture.lines);
    for (const secret of ['hunter2', 'sk_live_x', 'whsec', jwt, 'abcDEF123', '"st"', '/sign/tok']) expect(text).to.not.include(secret);
    const line = capture.lines[0] as any;
    expect(line.password).to.equal('[REDACTED]');
    expect(line.body.nested[0].hmac_secret).to.equal('[REDACTED]');
    expect(line.note).to.equal('Bearer [REDACTED] and http://sandbox/esign/sign/[REDACTED]');
  });
});
