import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Money } from '../../domain/money';
import { buildUser, loginAs } from '../support/factories';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { testConfig, testDb } from '../support/stack';
import { receivable } from '../support/simulate';

const ROOT = join(__dirname, '..', '..');

/** `npm run audit:verify`, as an operator runs it: a separate process with the deployment's configuration. */
function auditVerify(): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'db/audit-cli.ts'], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, SERVICE_ENV: 'dev', DATABASE_URL: testConfig().databaseUrl },
  });
  return { status: run.status, stdout: run.stdout + run.stderr };
}

describe('audit trail (issue #29)', () => {
  const stack = operationsStack();

  it('lists both approvals of a four-eyes pair with actors, IPs, user agents and request ids; a viewer is refused', async () => {
    const { client } = stack;
    const { token } = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const [first, second] = [await buildUser({ roles: ['approver'] }), await buildUser({ roles: ['approver'] })];
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    const viewer = await loginAs(client, await buildUser({ roles: ['viewer'] }));
    const body = directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });
    const id = (await createDirect(client, token, body)).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    for (const [n, who] of [first, second].entries()) {
      const approved = await client.post(`/v1/backoffice/operations/${id}/approve`, { note: `ok ${n}` }, {
        token: await loginAs(client, who), headers: { 'User-Agent': `console-test/${n}`, 'X-Request-Id': `audit-${id}-${n}` },
      });
      expect(approved.status, approved.text).to.equal(200);
    }

    const page = await client.get(`/v1/backoffice/audit-events?target_id=${id}`, { token: admin });
    expect(page.status, page.text).to.equal(200);
    const approvals = page.body.items.filter((e: { action: string }) => e.action === 'operation.approve').reverse();
    expect(approvals.map((e: { actor: { id: string; email: string } }) => e.actor)).to.deep.equal([
      { type: 'user', id: first.id, email: first.email }, { type: 'user', id: second.id, email: second.email },
    ]);
    expect(approvals.map((e: { request_id: string }) => e.request_id)).to.deep.equal([`audit-${id}-0`, `audit-${id}-1`]);
    expect(approvals.map((e: { user_agent: string }) => e.user_agent)).to.deep.equal(['console-test/0', 'console-test/1']);
    expect(approvals[0].ip).to.be.a('string').and.not.equal('');
    expect(approvals[0].before).to.deep.equal({ lifecycle_status: 'WAITING_APPROVAL', approvals: 0 });
    expect(approvals[0].after).to.deep.equal({ lifecycle_status: 'WAITING_APPROVAL', approvals: 1 });
    expect(approvals[0].request).to.deep.equal({ note: 'ok 0' });
    expect(approvals[1].before).to.deep.equal({ lifecycle_status: 'WAITING_APPROVAL' });
    expect(approvals[1].after).to.deep.equal({ lifecycle_status: 'PRE_APPROVED' });
    expect(approvals[1].request).to.deep.equal({ note: 'ok 1' });
    expect(approvals[1].prev_hash).to.match(/^[0-9a-f]{64}$/);

    const byActor = await client.get(`/v1/backoffice/audit-events?actor_id=${first.id}&action=operation.approve`, { token: admin });
    expect(byActor.body.items.map((e: { target: { id: string } }) => e.target.id)).to.deep.equal([id]);

    const csv = await client.get(`/v1/backoffice/audit-events.csv?target_id=${id}&action=operation.approve`, { token: admin });
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-type')).to.match(/^text\/csv/);
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).to.match(/^occurred_at,actor_type,actor_id,actor_email,action,/);
    expect(lines).to.have.length(3);
    expect(lines[1]).to.include(second.email).and.include(`audit-${id}-1`);

    const refused = await client.get('/v1/backoffice/audit-events', { token: viewer });
    expect(refused.status).to.equal(403);
    expect(refused.body.detail.code).to.equal('scope_insufficient');
  });

  it('records refused staff actions with the status and code only: a viewer\'s approve, a repeated approve, a deny without a reason, a bad invitation; not an anonymous call', async () => {
    const { client } = stack;
    const { token } = await buildOperationsIntegrator(client, { dualApprovalAboveBrl: Money.of('60000.00') });
    const approver = await buildUser({ roles: ['approver'] });
    const viewer = await buildUser({ roles: ['viewer'] });
    const adminUser = await buildUser({ roles: ['admin'] });
    const [approverToken, viewerToken, admin] = [await loginAs(client, approver), await loginAs(client, viewer), await loginAs(client, adminUser)];
    const id = (await createDirect(client, token, directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] }))).body.id;
    await untilStatus(client, token, id, 'WAITING_APPROVAL');
    const approve = (who?: string) => client.post(`/v1/backoffice/operations/${id}/approve`, { note: 'a note never kept on a refusal' }, who ? { token: who } : {});

    expect((await approve()).status).to.equal(401);
    expect((await approve(viewerToken)).status).to.equal(403);
    expect((await approve(approverToken)).status).to.equal(200);
    expect((await approve(approverToken)).status).to.equal(409);
    expect((await client.post(`/v1/backoffice/operations/${id}/deny`, {}, { token: approverToken })).status).to.equal(422);
    const badInvite = await client.post('/v1/backoffice/users', { email: `bad-${Date.now()}@example.com`, name: 'Bad', role: 'superuser' }, { token: admin });
    expect(badInvite.status).to.equal(422);

    const rows = (await client.get(`/v1/backoffice/audit-events?target_id=${id}`, { token: admin })).body.items.reverse()
      .map((e: { action: string; actor: { id: string }; after: unknown; request_id: string }) => [e.action, e.actor.id, e.after]);
    expect(rows).to.deep.equal([
      ['operation.approve_refused', viewer.id, { status: 403, code: 'scope_insufficient' }],
      ['operation.approve', approver.id, { lifecycle_status: 'WAITING_APPROVAL', approvals: 1 }],
      ['operation.approve_refused', approver.id, { status: 409, code: 'approver_already_approved' }],
      ['operation.deny_refused', approver.id, { status: 422, code: 'validation_error' }],
    ]);
    const invites = (await client.get(`/v1/backoffice/audit-events?actor_id=${adminUser.id}&action=user.invite_refused`, { token: admin })).body.items;
    expect(invites.map((e: { target: unknown; after: unknown }) => [e.target, e.after])).to.deep.equal([[null, { status: 422, code: 'validation_error' }]]);
  });

  it('records a staff action that failed (5xx) as <action>_failed: the contract sent again while the e-sign provider still refuses it', async () => {
    const { client, token } = stack;
    const analyst = await buildUser({ roles: ['analyst'] });
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    const id = (await createDirect(client, token, directBody({ email: `esign-fail-create+audit${Date.now()}@example.com` }))).body.id;
    await untilStatus(client, token, id, 'CONTRACT_ERROR');
    const resend = await client.post(`/v1/backoffice/operations/${id}/contract/send-for-signature`, {}, { token: await loginAs(client, analyst) });
    expect(resend.status, resend.text).to.equal(502);

    const rows = (await client.get(`/v1/backoffice/audit-events?target_id=${id}`, { token: admin })).body.items;
    expect(rows.map((e: { action: string; actor: { id: string }; after: unknown }) => [e.action, e.actor.id, e.after])).to.deep.equal([
      ['operation.send_for_signature_failed', analyst.id, { status: 502, code: 'esign_create_failed' }],
    ]);
  });

  it('records sign-in failures and successes under the account tried, and pages by cursor', async () => {
    const { client } = stack;
    const user = await buildUser({ roles: ['viewer'] });
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    expect((await client.post('/v1/auth/login', { email: user.email, password: 'not-the-password' })).status).to.equal(401);
    await loginAs(client, user);
    const first = await client.get(`/v1/backoffice/audit-events?limit=1&created[gte]=${encodeURIComponent(new Date(Date.now() - 60_000).toISOString())}`, { token: admin });
    expect(first.status, first.text).to.equal(200);
    expect(first.body.items).to.have.length(1);
    expect(first.body.next_cursor).to.be.a('string');
    const next = await client.get(`/v1/backoffice/audit-events?limit=1&cursor=${first.body.next_cursor}`, { token: admin });
    expect(next.body.items[0].id).to.not.equal(first.body.items[0].id);

    const logins = (await client.get('/v1/backoffice/audit-events?limit=500', { token: admin })).body.items
      .filter((e: { actor: { email?: string } }) => e.actor.email === user.email).map((e: { action: string; after: unknown }) => [e.action, e.after]);
    expect(logins).to.deep.equal([['auth.login', null], ['auth.login_failed', { status: 401, detail: 'invalid_credentials' }]]);
  });

  it('records each payload decode by who and how many, never the payloads', async () => {
    const { client } = stack;
    const analyst = await buildUser({ roles: ['analyst'] });
    const admin = await loginAs(client, await buildUser({ roles: ['admin'] }));
    const decoded = await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { token: await loginAs(client, analyst), headers: { 'X-Namespace': testConfig().temporal.namespace } });
    expect(decoded.status, decoded.text).to.equal(200);
    const rows = (await client.get(`/v1/backoffice/audit-events?actor_id=${analyst.id}&action=codec.decode`, { token: admin })).body.items;
    expect(rows.map((e: { actor: unknown; after: unknown }) => [e.actor, e.after])).to.deep.equal([[{ type: 'user', id: analyst.id, email: analyst.email }, { payloads: 0 }]]);
  });

  it('refuses UPDATE and DELETE; audit:verify names the first row altered by hand by a superuser bypassing the trigger', async () => {
    const { client } = stack;
    await loginAs(client, await buildUser({ roles: ['viewer'] }));
    const db = testDb();
    const row = await db('audit_events').orderBy('seq', 'desc').first();
    for (const statement of [db('audit_events').where({ seq: row.seq }).update({ action: 'x' }), db('audit_events').where({ seq: row.seq }).del()]) {
      const refusal = await statement.then(() => null, (err: Error) => err.message);
      expect(refusal).to.match(/append-only/);
    }
    expect(auditVerify()).to.include({ status: 0 });

    const target = await db('audit_events').orderBy('seq').offset(1).first();
    await db.transaction(async (trx) => {
      await trx.raw('set local session_replication_role = replica');
      await trx('audit_events').where({ seq: target.seq }).update({ ip: '203.0.113.66' });
    });
    try {
      const broken = auditVerify();
      expect(broken.status).to.equal(1);
      expect(broken.stdout).to.include(`seq ${target.seq} (id ${target.id})`).and.include('altered');
    } finally {
      await db.transaction(async (trx) => {
        await trx.raw('set local session_replication_role = replica');
        await trx('audit_events').where({ seq: target.seq }).update({ ip: target.ip });
      });
    }
    expect(auditVerify()).to.include({ status: 0 });
  });
});
