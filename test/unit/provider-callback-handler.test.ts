import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express from 'express';
import { createLogger } from '../../platform/logger';
import { errorHandler } from '../../api/middleware/error-handler';
import { providerCallbackRoutes } from '../../api/provider-callbacks/routes';

/**
 * Issue #30: the callback handlers fail closed on their own. Mounted without the signature check
 * (a pipeline that lost it), an unsigned callback is a 401, not work done and not a 500.
 */
describe('provider callback handlers without a verified signature', () => {
  for (const path of ['/v1/internal/esign/callback', '/v1/internal/pix/callback']) {
    it(`${path} answers 401 callback_signature_missing`, async () => {
      const app = express();
      app.use(express.json());
      app.use((req, _res, next) => {
        req.ctx = { requestId: 'r', correlationId: 'r', traceId: '0'.repeat(32), spanId: '0'.repeat(16), startedAt: 0, clientIp: '127.0.0.1', execute: (work) => work({ db: null as never, afterCommit: () => undefined }) };
        next();
      });
      app.use(providerCallbackRoutes({ db: null as never, temporal: null as never }));
      app.use(errorHandler(createLogger('error', 'test')));
      const server = app.listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      try {
        const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`, {
          method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"payment_id":"pay_1","document_id":"doc_1"}',
        });
        expect(res.status).to.equal(401);
        expect(await res.json()).to.deep.equal({ detail: 'callback_signature_missing' });
      } finally {
        server.close();
      }
    });
  }
});
