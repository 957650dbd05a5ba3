import { expect } from 'chai';
import { testDb } from '../support/stack';
import { Child, startChild } from '../support/child-process';
import { buildUser, loginAs } from '../support/factories';
import { buildOperationsIntegrator, createDirect, directBody } from '../support/operations';
import { untilStatus } from '../support/lifecycle';
import { receivable } from '../support/simulate';
import { ownQueueWithProxiedDatabase, WORKER_READY } from '../support/reliability';
import { eventually } from '../support/webhooks';

/**
 * An approval the workflow accepted is written by the activity that applies it, with its audit row
 * in the same transaction: whatever happens between the acceptance and the write (Postgres down,
 * the worker killed), no one ever sees the approval without its row or the row without it, and
 * after recovery there is exactly one of each.
 */
describe('a staff decision and its audit row across faults', function () {
  this.timeout(180_000);

  /** One snapshot of both: the operation's state and its approval rows, read in one statement. */
  async function snapshot(id: string): Promise<{ status: string; rows: number }> {
    const { rows } = await testDb().raw(`select o.lifecycle_status as status,
      (select count(*) from audit_events a where a.target_id = o.id::text and a.action = 'operation.approve')::int as rows
      from operations o where o.id = ?`, [id]);
    return rows[0];
  }

  /** Watches the pair until stopped, and fails if it ever sees the approval without its row or a row without the approval. */
  function watch(id: string) {
    const seen: { status: string; rows: number }[] = [];
    let running = true;
    const loop = (async () => {
      while (running) {
        seen.push(await snapshot(id));
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    return async () => {
      running = false;
      await loop;
      const torn = seen.filter(({ status, rows }) => (status === 'PRE_APPROVED') !== (rows === 1) || rows > 1);
      expect(torn, 'a snapshot with the approval and not its row, or the reverse').to.deep.equal([]);
      return seen;
    };
  }

  async function stackOnProxy() {
    const { client, proxy, workerEnv, proxiedDatabaseUrl } = await ownQueueWithProxiedDatabase();
    const { token } = await buildOperationsIntegrator(client);
    const approver = await loginAs(client, await buildUser({ roles: ['approver'] }));
    const waiting = async () => {
      const created = await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }));
      await untilStatus(client, token, created.body.id, 'WAITING_APPROVAL', 60_000);
      return created.body.id as string;
    };
    return { client, proxy, workerEnv, proxiedUrl: proxiedDatabaseUrl, approver, waiting };
  }

  it('Postgres down between the acceptance and the write: neither is seen until it is back, then both, once', async () => {
    const { client, proxy, workerEnv, proxiedUrl, approver, waiting } = await stackOnProxy();
    const worker = await startChild('worker/main.ts', { ...workerEnv, DATABASE_URL: proxiedUrl }, WORKER_READY);
    try {
      const id = await waiting();
      const stop = watch(id);
      proxy.cut();
      const approving = client.post(`/v1/backoffice/operations/${id}/approve`, { note: 'during the outage' }, { token: approver });
      // The workflow accepts the approval and its activity retries against the database that is down.
      await new Promise((r) => setTimeout(r, 3_000));
      expect(await snapshot(id)).to.deep.equal({ status: 'WAITING_APPROVAL', rows: 0 });
      proxy.restore();
      const res = await approving;
      expect(res.status, res.text).to.equal(200);
      expect(res.body.lifecycle_status).to.equal('PRE_APPROVED');
      await eventually(async () => expect(await snapshot(id)).to.deep.equal({ status: 'PRE_APPROVED', rows: 1 }));
      const seen = await stop();
      expect(seen.some(({ rows }) => rows === 0), 'the watch saw the state before the approval too').to.equal(true);
    } finally {
      proxy.restore();
      await worker.kill();
      await proxy.close();
    }
  });

  it('the worker killed while the approval is being written: the next worker writes both, once', async () => {
    const { client, proxy, workerEnv, proxiedUrl, approver, waiting } = await stackOnProxy();
    const dying: Child = await startChild('worker/main.ts', { ...workerEnv, DATABASE_URL: proxiedUrl }, WORKER_READY);
    let survivor: Child | undefined;
    try {
      const id = await waiting();
      // The first worker has the workflow cached, so the approval's task goes to it; its local
      // activity hangs on the frozen database until the worker is killed, and the task then goes
      // to the survivor once its 10 s timeout passes, within the api's update deadline.
      survivor = await startChild('worker/main.ts', workerEnv, WORKER_READY);
      const stop = watch(id);
      proxy.freeze();
      const approving = client.post(`/v1/backoffice/operations/${id}/approve`, { note: 'across a crash' }, { token: approver });
      await new Promise((r) => setTimeout(r, 1_500));
      await dying.kill();
      const res = await approving;
      expect(res.status, res.text).to.equal(200);
      await eventually(async () => expect(await snapshot(id)).to.deep.equal({ status: 'PRE_APPROVED', rows: 1 }));
      await stop();
      const [row] = await testDb()('audit_events').where({ target_id: id, action: 'operation.approve' });
      expect([row.before, row.after, row.request]).to.deep.equal([{ lifecycle_status: 'WAITING_APPROVAL' }, { lifecycle_status: 'PRE_APPROVED' }, { note: 'across a crash' }]);
    } finally {
      proxy.restore();
      await dying.kill();
      await survivor?.kill('SIGTERM');
      await proxy.close();
    }
  });
});
