import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoint } from '../../domain/audit-checkpoint';
import { auditHash } from '../../domain/audit-chain';
import { AuditEventsRepository } from '../../db/repositories/audit-events';
import { buildUser, loginAs } from '../support/factories';
import { ApiClient } from '../support/http';
import { untilStatus } from '../support/lifecycle';
import { buildOperationsIntegrator, createDirect, directBody, operationsStack } from '../support/operations';
import { receivable } from '../support/simulate';
import { anotherApi, testConfig, testDb } from '../support/stack';
import { temporal } from '../support/temporal';
import { eventually } from '../support/webhooks';
import { auditCheckpointScheduleId } from '../../domain/workflow-ids';

const ROOT = join(__dirname, '..', '..');

/** `npm run audit:verify`, as an auditor runs it: a separate process with the deployment's database. */
function auditVerify(...args: string[]): { status: number | null; stdout: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'db/audit-cli.ts', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, SERVICE_ENV: 'dev', DATABASE_URL: testConfig().databaseUrl },
  });
  return { status: run.status, stdout: run.stdout + run.stderr };
}

/**
 * The database administrator's attack: one row rewritten, every later hash recomputed and written
 * by SQL (bypassing the append-only trigger as a superuser can), so the chain still links up.
 * Answers how to put the trail back.
 */
async function rewriteFrom(seq: number): Promise<() => Promise<void>> {
  const db = testDb();
  const rows = await new AuditEventsRepository(db).chainPage(seq - 1, 100_000);
  const original = rows.map((row) => ({ seq: row.seq, ip: row.ip, prev_hash: row.prevHash, hash: row.hash }));
  const writeAll = async (changes: { seq: number; ip: string | null; prev_hash: string; hash: string }[]) => db.transaction(async (trx) => {
    await trx.raw('set local session_replication_role = replica');
    // Reversed, so no new hash meets an old one still in place (hash is unique).
    for (const change of [...changes].reverse()) await trx('audit_events').where({ seq: change.seq }).update({ hash: `tmp-${change.seq}` });
    for (const change of changes) await trx('audit_events').where({ seq: change.seq }).update({ ip: change.ip, prev_hash: change.prev_hash, hash: change.hash });
  });
  let prevHash = rows[0].prevHash;
  const forged = rows.map((row, i) => {
    const ip = i === 0 ? '203.0.113.99' : row.ip;
    const hash = auditHash({ ...row, ip }, prevHash);
    const change = { seq: row.seq, ip, prev_hash: prevHash, hash };
    prevHash = hash;
    return change;
  });
  await writeAll(forged);
  return () => writeAll(original);
}

describe('audit checkpoints', function () {
  this.timeout(180_000);
  const stack = operationsStack();
  const log = join(mkdtempSync(join(tmpdir(), 'audit-checkpoints-')), 'checkpoints.jsonl');
  let api: ApiClient;
  let admin: string;

  before(async () => {
    api = new ApiClient((await anotherApi({ AUDIT_CHECKPOINT_LOG: log })).url);
    admin = await loginAs(api, await buildUser({ roles: ['admin'] }));
  });

  async function approvedOperation(token: string): Promise<string> {
    const body = directBody({ receivables: [receivable({ net_future_value: '70000.00', requested_net_future_value: '70000.00' })] });
    const id = (await createDirect(stack.client, token, body)).body.id;
    await untilStatus(stack.client, token, id, 'WAITING_APPROVAL');
    const approver = await loginAs(stack.client, await buildUser({ roles: ['approver'] }));
    expect((await stack.client.post(`/v1/backoffice/operations/${id}/approve`, {}, { token: approver })).status).to.equal(200);
    return id;
  }

  it('signs the head with a key of the JWKS, logs it outside Postgres and publishes it to the originators it covers only', async () => {
    const mine = stack.token;
    const other = (await buildOperationsIntegrator(stack.client)).token;
    await approvedOperation(mine);
    const approver = await loginAs(api, await buildUser({ roles: ['approver'] }));
    expect((await api.post('/v1/backoffice/audit/checkpoints', {}, { token: approver })).status).to.equal(403);

    const made = await api.post('/v1/backoffice/audit/checkpoints', {}, { token: admin });
    expect(made.status, made.text).to.equal(201);
    const head = await testDb()('audit_events').where('seq', '<=', made.body.seq).orderBy('seq', 'desc').first();
    expect(made.body).to.include({ seq: Number(head.seq), hash: head.hash });

    const { keys } = (await api.get('/v1/.well-known/jwks.json')).body as { keys: (Record<string, string> & { kid: string })[] };
    const reading = readCheckpoint(made.body.jws, (kid) => {
      const jwk = keys.find((key) => key.kid === kid);
      return jwk && createPublicKey({ key: jwk, format: 'jwk' });
    });
    expect(reading).to.deep.include({ valid: true });
    expect(reading.valid && reading.checkpoint).to.include({ id: made.body.id, seq: made.body.seq, hash: made.body.hash, kid: made.body.kid });

    const logged = readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(logged.map((entry) => entry.jws)).to.include(made.body.jws);

    const listed = await stack.client.get('/v1/audit/checkpoints?limit=5', { token: mine });
    expect(listed.status, listed.text).to.equal(200);
    expect(listed.body.items.map((c: { id: string }) => c.id)).to.include(made.body.id);
    const event = await stack.client.get('/v1/events?type=audit.checkpoint', { token: mine });
    expect(event.body.items.map((e: { data: { jws: string } }) => e.data.jws)).to.include(made.body.jws);
    const elsewhere = await stack.client.get('/v1/audit/checkpoints', { token: other });
    expect(elsewhere.body.items.map((c: { id: string }) => c.id)).to.not.include(made.body.id);

    const audited = await testDb()('audit_events').where({ action: 'audit.checkpoint', target_id: made.body.id });
    expect(audited).to.have.length(1);
  });

  it('a row rewritten and every later hash recomputed: audit:verify alone passes, against the checkpoint log it names the checkpoint and the row rewritten', async () => {
    await approvedOperation(stack.token);
    const first = (await api.post('/v1/backoffice/audit/checkpoints', {}, { token: admin })).body;
    await approvedOperation(stack.token);
    await approvedOperation(stack.token);
    const second = (await api.post('/v1/backoffice/audit/checkpoints', {}, { token: admin })).body;
    expect(second.seq).to.be.greaterThan(first.seq);
    expect(auditVerify('--checkpoints', log)).to.deep.include({ status: 0 });
    // The checkpoints as an integrator keeps them (no row hashes): they locate a rewrite only to a range.
    const listed = join(mkdtempSync(join(tmpdir(), 'audit-listed-')), 'checkpoints.json');
    writeFileSync(listed, (await stack.client.get('/v1/audit/checkpoints?limit=50', { token: stack.token })).text);

    // A row in the middle of what the second checkpoint covers, neither its first nor its last.
    const covered = await testDb()('audit_events').where('seq', '>', first.seq).andWhere('seq', '<', second.seq).orderBy('seq').select('seq');
    expect(covered.length).to.be.greaterThan(1);
    const rewritten = Number(covered[1].seq);
    const restore = await rewriteFrom(rewritten);
    try {
      const alone = auditVerify();
      expect(alone.status, alone.stdout).to.equal(0);
      const checked = auditVerify('--checkpoints', log);
      expect(checked.status, checked.stdout).to.equal(1);
      expect(checked.stdout).to.include(`checkpoint ${second.id} (seq ${second.seq}`).and.include(`seq ${rewritten} was rewritten`);
      const ranged = auditVerify('--checkpoints', listed);
      expect(ranged.status, ranged.stdout).to.equal(1);
      expect(ranged.stdout).to.include(`checkpoint ${second.id} (seq ${second.seq}`).and.include(`after seq ${first.seq}`);
    } finally {
      await restore();
    }
    expect(auditVerify('--checkpoints', log)).to.deep.include({ status: 0 });
  });

  it('refuses a checkpoint log line whose row hashes are not the ones its checkpoint signed', async () => {
    await approvedOperation(stack.token);
    const made = (await api.post('/v1/backoffice/audit/checkpoints', {}, { token: admin })).body;
    const line = readFileSync(log, 'utf8').trim().split('\n').map((text) => JSON.parse(text)).find((entry) => entry.id === made.id);
    expect(line).to.include({ from_seq: made.from_seq, seq: made.seq, hash: made.hash });
    expect(line.rows.at(-1)).to.deep.equal([made.seq, made.hash]);
    expect(line.rows.length).to.be.greaterThan(1);
    const [firstSeq] = line.rows[0];
    const restore = await rewriteFrom(firstSeq);
    const altered = join(mkdtempSync(join(tmpdir(), 'audit-altered-')), 'checkpoints.jsonl');
    // Whoever rewrote the trail also wrote its new hash for the first row into the log line, so the
    // verifier would blame a later row: the signed Merkle root gives the line away.
    const forged = (await testDb()('audit_events').where({ seq: firstSeq }).first()).hash;
    writeFileSync(altered, `${JSON.stringify({ ...line, rows: [[firstSeq, forged], ...line.rows.slice(1)] })}\n`);
    try {
      const checked = auditVerify('--checkpoints', altered);
      expect(checked.status, checked.stdout).to.equal(1);
      expect(checked.stdout).to.include(`checkpoint ${made.id}`).and.include('the log line was altered');
    } finally {
      await restore();
    }
  });

  it('makes one every hour by a Temporal Schedule, whose run signs the head', async () => {
    await approvedOperation(stack.token);
    const schedule = (await temporal()).schedule.getHandle(auditCheckpointScheduleId(testConfig().temporal.taskQueue));
    expect((await schedule.describe()).spec.intervals?.[0]?.every).to.equal(3_600_000);
    const head = await testDb()('audit_events').max({ seq: 'seq' }).first();
    await schedule.trigger();
    await eventually(async () => expect(await testDb()('audit_checkpoints').where('seq', '>=', head!.seq)).to.have.length.greaterThan(0));
  });
});
