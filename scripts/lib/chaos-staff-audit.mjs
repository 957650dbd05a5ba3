// The fault run's audit of staff actions (issue #45): every approval that took effect (a row in
// operation_approvals, which only the workflow's activity writes) has exactly one audit row by the
// same person, and no audit row claims an approval that did not take effect; then the trail is
// verified against the checkpoints the run made (through the hourly Schedule, triggered more often).
import { spawnSync } from 'node:child_process';
import { ROOT, say } from './infra.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** One more checkpoint after the load, so the last rows are covered too; waits until it is stored. */
async function finalCheckpoint(db, temporal, scheduleId) {
  const { rows: [{ head }] } = await db.query('select coalesce(max(seq), 0)::bigint as head from audit_events');
  await temporal.schedule.getHandle(scheduleId).trigger();
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(1_000)) {
    const { rows: [{ n }] } = await db.query('select count(*)::int as n from audit_checkpoints where seq >= $1', [head]);
    if (n > 0) return true;
  }
  return false;
}

/**
 * `journeys`: those with `staff` set were approved by two staff users; `checkpoints`: how many
 * Schedule triggers the run made; `log`: the checkpoint log the cluster wrote; `check(name,
 * expected, actual, ok)` records a row of the audit.
 */
export async function auditStaffActions({ db, cluster, journeys, checkpoints, temporal, check, scheduleId, log }) {
  const staffIds = journeys.filter((j) => j.staff && j.id).map((j) => j.id);
  check('staff journeys (four-eyes approvals above the auto-approval limit)', '>0', staffIds.length, staffIds.length > 0);
  const { rows: pairs } = await db.query(`
    select o.id, o.lifecycle_status, count(a.user_id)::int as approvals from operations o left join operation_approvals a on a.operation_id = o.id
    where o.id = any($1) group by 1, 2`, [staffIds]);
  const unpaired = pairs.filter((p) => p.lifecycle_status !== 'WAITING_APPROVAL' && p.approvals !== 2);
  for (const p of unpaired.slice(0, 5)) say(`operation ${p.id} is ${p.lifecycle_status} with ${p.approvals} approvals`);
  check('staff operations past approval without exactly two approvals', 0, unpaired.length);

  const { rows: wrong } = await db.query(`
    with took as (select operation_id::text as target, user_id::text as actor from operation_approvals where operation_id = any($1)),
    audited as (select target_id as target, actor->>'id' as actor, count(*)::int as n from audit_events
      where action = 'operation.approve' and target_id = any($2) group by 1, 2)
    select target, actor, coalesce(n, 0) as n, took.actor is not null as took_effect from took full join audited using (target, actor)
    where coalesce(n, 0) <> 1 or took.actor is null`, [staffIds, staffIds.map(String)]);
  for (const w of wrong.slice(0, 5)) say(`approval of ${w.target} by ${w.actor}: ${w.took_effect ? 'took effect' : 'did not take effect'}, ${w.n} audit rows`);
  check('staff actions that took effect without exactly one audit row', 0, wrong.length);

  const made = await finalCheckpoint(db, temporal, scheduleId);
  check('audit checkpoints triggered during the load (failed: Temporal restarting), and one after', '>0', `${checkpoints.triggered} (${checkpoints.failed}), ${made ? 'made' : 'NOT made'}`, made);
  const verify = spawnSync(process.execPath, ['--import', 'tsx', 'db/audit-cli.ts', '--checkpoints', log], {
    cwd: ROOT, encoding: 'utf8', env: { ...cluster.appEnv, DATABASE_URL: cluster.databaseUrl },
  });
  const verdict = `${verify.stdout}${verify.stderr}`.trim();
  if (verify.status !== 0) say(`audit:verify --checkpoints: ${verdict}`);
  const matched = /matching (\d+) checkpoints/.exec(verdict)?.[1] ?? '0';
  check('audit chain verified against its checkpoints (checkpoints matched)', '>0', matched, verify.status === 0 && Number(matched) > 0);
}
