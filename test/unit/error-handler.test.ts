import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Client, Connection, ServiceError } from '@temporalio/client';
import { expect } from 'chai';
import express from 'express';
import { createLogger } from '../../platform/logger';
import { errorHandler } from '../../api/middleware/error-handler';
import { jsonBody } from '../../api/middleware/json-body';
import { AppError, ValidationFailed } from '../../domain/errors';

/**
 * The last-resort mapper in a real Express app: whatever a route throws, the answer is JSON. With
 * `before` handlers, the failure passes them on its way (a POST with a JSON body).
 */
async function answerTo(failure: unknown, before: (express.RequestHandler | express.ErrorRequestHandler)[] | null = null): Promise<{ status: number; type: string | null; body: unknown }> {
  const app = express();
  app.use('/fail', () => { throw failure; });
  if (before) app.use(...before);
  app.use(errorHandler(createLogger('error', 'test')));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fail`;
    const res = await fetch(url, before ? { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"name":"x"}' } : {});
    return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
  } finally {
    server.close();
  }
}

describe('error handler', () => {
  it('drops an echoed input it cannot serialise instead of answering HTML', async () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    const res = await answerTo(new ValidationFailed([{ loc: ['body', 'a'], msg: 'bad', type: 'value_error', input: cycle }]));
    expect(res.status).to.equal(422);
    expect(res.type).to.match(/^application\/json/);
    expect(res.body).to.deep.equal({ detail: { code: 'validation_error', message: 'Request validation failed', errors: [{ loc: ['body', 'a'], msg: 'bad', type: 'value_error' }] } });
  });

  it('answers internal_error in JSON when another error\'s body cannot be serialised', async () => {
    const res = await answerTo(new AppError(409, { code: 'odd', value: 1n }));
    expect(res.status).to.equal(500);
    expect(res.type).to.match(/^application\/json/);
    expect(res.body).to.deep.equal({ detail: 'internal_error' });
  });

  it('answers 503 workflow_unavailable when Temporal cannot be reached within the call deadline', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const connection = Connection.lazy({ address: `127.0.0.1:${port}`, connectTimeout: 500 });
    const handle = new Client({ connection }).workflow.getHandle('operation-unreachable');
    const failure = await connection.withDeadline(Date.now() + 1_000, () => handle.signal('signerSigned')).then(() => null, (err: unknown) => err);
    await connection.close().catch(() => undefined);
    const res = await answerTo(failure);
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ detail: 'workflow_unavailable' });
  });

  it('answers 503 workflow_unavailable when Temporal refuses an update while the workflow task keeps failing (WorkflowNotReady)', async () => {
    // The client's error as it wraps the server's FAILED_PRECONDITION answer.
    const notReady = Object.assign(new Error('9 FAILED_PRECONDITION: Unable to perform workflow execution update due to Workflow Task in failed state.'), { code: 9 });
    const res = await answerTo(new ServiceError('Workflow Update failed', { cause: notReady }));
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ detail: 'workflow_unavailable' });
  });

  it('keeps a socket error from before the body parser a 503, not a body that failed to decode', async () => {
    // Postgres refusing connections under the per-IP limit: the error passes the body parser's error mapper on its way.
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { errno: -111, code: 'ECONNREFUSED', syscall: 'connect' });
    const res = await answerTo(refused, jsonBody('1mb'));
    expect(res.status).to.equal(503);
    expect(res.body).to.deep.equal({ detail: 'database_unavailable' });
  });
});
