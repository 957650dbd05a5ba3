#!/usr/bin/env node
// `npm run chaos`: steady load from creation to PAID (titles paid, webhooks delivered to a local
// HTTPS receiver) on the `npm run cluster` topology while processes crash, restart and freeze,
// then an audit that nothing was lost, doubled or left without a way forward. Exits 1 on any miss.
// CHAOS_LOAD_SECONDS (default 150) sets how long load and faults run; draining follows.
import './lib/on-supported-node.mjs';
import https from 'node:https';
import path from 'node:path';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { generate } from 'selfsigned';
import { Client, Connection } from '@temporalio/client';
import { startCluster, UNEXHAUSTED_RATE_LIMITS } from './lib/cluster.mjs';
import { ApiDriver, journey } from './lib/journeys.mjs';
import { ROOT, say } from './lib/infra.mjs';
import { freeLowPort } from './lib/ports.mjs';
import { auditPixCollection, collectionPspBearer } from './lib/chaos-pix-audit.mjs';
import { auditStaffActions } from './lib/chaos-staff-audit.mjs';
import { auditLedger, auditLedgerAgainstPsps } from './lib/chaos-ledger-audit.mjs';
import { auditRegistration } from './lib/chaos-registration-audit.mjs';

const LOAD_MS = Number(process.env.CHAOS_LOAD_SECONDS ?? 150) * 1_000;
// domain/workflow-ids.ts's collectionSweepScheduleId and auditCheckpointScheduleId on the cluster's default task queue (this script runs without tsx).
const COLLECTION_SWEEP_SCHEDULE_ID = 'pix-collection-sweep';
const AUDIT_CHECKPOINT_SCHEDULE_ID = 'audit-checkpoint-operations';
// One journey in five is a staff journey: 2 x 125,000.00, above the dev seed's auto-approval (50,000.00)
// and four-eyes (200,000.00) limits, approved by the seed's approver and a second one made for the run.
const STAFF_EVERY = 5;
const STAFF_AMOUNT = '125000.00';
// One journey in seven (never a staff one) has a duplicata taken by another financier right after
// creation: it must end CANCELLED receivable_encumbered with no PIX and no act of ours left.
const ENCUMBERED_EVERY = 7;
// The dev seed's demo originator A, whose journeys these are, registers its acquisitions at the
// sandbox escriturador, this CNPJ the holder they make.
const DEMO_ORIGINATOR_ID = '01930000-0000-7000-8000-00000000000a';
const REGISTRATION_HOLDER = '11222333000181';
const REGISTRAR_OUTAGE_SECONDS = 20;
// The ledger's business dates are São Paulo's (domain/pricing/business-date.ts's BUSINESS_TIME_ZONE).
const businessDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });
const APPROVERS = [{ email: 'backoffice@example.com', password: 'backoffice-dev-password' }, { email: 'chaos-approver2@example.com', password: 'backoffice-dev-password' }];
// After the load, the journeys still under way have this long to finish (the run waits only for
// those). 120 s was short for one fault-delayed journey in a quiet fresh-clone run: it reached PAID
// 1 s before its deadline, so its PIX, applied afterwards, was counted as a journey that stopped.
const DRAIN_MS = 180_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const between = (lo, hi) => lo + Math.random() * (hi - lo);

// ---- a webhook receiver on HTTPS, with its own CA the workers are told to trust
const ca = await generate([{ name: 'commonName', value: 'Chaos CA' }], { keyType: 'ec', algorithm: 'sha256', extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }] });
const leaf = await generate([{ name: 'commonName', value: '127.0.0.1' }], { keyType: 'ec', algorithm: 'sha256', ca: { key: ca.private, cert: ca.cert }, extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }, { name: 'extKeyUsage', serverAuth: true }] });
const received = new Map(); // event_id -> times
const CHECKPOINT_LOG = path.join(ROOT, '.data', 'chaos', 'audit-checkpoints.jsonl');
let receiver = null;
// Below the ephemeral range: the receiver is stopped for a minute and listens again on the same
// port, which an outgoing connection could have taken meanwhile if the port were an ephemeral one.
const receiverPort = await freeLowPort();
async function startReceiver() {
  receiver = https.createServer({ cert: leaf.cert, key: leaf.private }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      received.set(body.event_id, (received.get(body.event_id) ?? 0) + 1);
      res.writeHead(204).end();
    });
  });
  await new Promise((resolve, reject) => {
    receiver.once('error', reject);
    receiver.listen(receiverPort, '127.0.0.1', () => {
      receiver.off('error', reject);
      resolve();
    });
  });
}
async function stopReceiver() {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
}
await startReceiver();

const cluster = await startCluster({
  // The audit reads Postgres and Temporal; Prometheus and Jaeger would only take CPU from the load.
  observability: false,
  fixedPorts: false, fresh: true, web: false, dataDir: path.join(ROOT, '.data', 'chaos'),
  env: {
    ...process.env, LOG_LEVEL: 'warn', CLUSTER_DATABASE: 'receivables',
    WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true', WEBHOOKS_EXTRA_CA_PEM: ca.cert,
    // Short enough that a receiver down for a minute is caught up within the drain.
    WEBHOOK_RETRY_SCHEDULE_MS: '0,2000,5000,10000,20000,30000,30000,30000',
    // Inside the run's fresh data folder: every api and worker appends its checkpoints there.
    AUDIT_CHECKPOINT_LOG: CHECKPOINT_LOG,
    ...UNEXHAUSTED_RATE_LIMITS,
  },
});
const api = cluster.apiUrl;
let misses = 1;
try {
  // ---- every api request goes through the driver, so the audit sees every status and latency
  const windows = { pgDown: [], pgFrozen: [] }; // Postgres's outages, [from, to] in ms since epoch; `to` null while open
  const providerOutages = []; // the sandbox's, the same way
  const driver = new ApiDriver(api);
  const { requests } = driver;
  const call = (...args) => driver.call(...args);
  await driver.login();
  // The second approver: the seed's approver account copied under another e-mail (same password),
  // so four-eyes has two people to ask; made by SQL, as nobody's staff action.
  const setup = new pg.Client({ connectionString: cluster.databaseUrl });
  await setup.connect();
  await setup.query(`insert into users (id, email, name, password_hash, kind, originator_id, scopes, roles)
    select gen_random_uuid(), $1, 'Chaos Second Approver', password_hash, kind, originator_id, scopes, roles from users where email = $2
    on conflict (email) do nothing`, [APPROVERS[1].email, APPROVERS[0].email]);
  // No route sets an originator's registration settings (they are staff's data): by SQL too.
  await setup.query(`insert into originator_registration_settings (originator_id, registrar, holder_document) values ($1, 'sandbox', $2)
    on conflict (originator_id) do nothing`, [DEMO_ORIGINATOR_ID, REGISTRATION_HOLDER]);
  await setup.end();
  const approvers = [];
  for (const { email, password } of APPROVERS) {
    const staff = new ApiDriver(api);
    // One record of every request, staff's too: the audit judges each answer the same way.
    staff.requests = requests;
    await staff.loginStaff(email, password);
    approvers.push(staff);
  }
  const subscription = await call('POST', '/v1/webhooks', { body: { url: `https://127.0.0.1:${receiverPort}/hooks`, events: ['operation.created', 'operation.approved', 'operation.contract_signed', 'operation.paid', 'title.paid'] } });
  if (subscription.status !== 201) throw new Error(`webhook registration answered ${subscription.status}: ${JSON.stringify(subscription.body)}`);

  // ---- the load: journeys from creation to PAID and every title paid, retried through the faults
  const journeys = [];

  // ---- the faults, on a timeline from the start of the load
  const faults = [];
  function fault(what, run) {
    const at = Date.now();
    faults.push({ what, at });
    say(`chaos: ${what}`);
    return run();
  }
  function postmasterPids() {
    const main = Number(readFileSync(path.join(cluster.postgres.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    const children = [];
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === main) children.push(Number(entry));
      } catch { /* gone */ }
    }
    return [main, ...children];
  }
  /** While Postgres is out, a probe every 250 ms: each must be answered within 2 s. */
  async function probeWhile(window) {
    while (window[1] === null) {
      await call('GET', '/v1/operations?limit=1', { timeoutMs: 5_000 });
      await sleep(250);
    }
  }
  /** Kills the sandbox and keeps the window until it answers again: the providers' 502s are the contract's answer while it lasts. */
  async function providersDown(name) {
    const window = [Date.now(), null];
    providerOutages.push(window);
    fault(name, () => cluster.sandbox.kill('SIGKILL'));
    // Bounded: a sandbox that never comes back fails the journeys' checks, not this wait.
    for (const until = Date.now() + 60_000; Date.now() < until && !(await fetch(`${cluster.sandboxUrl}/metrics`).then((res) => res.ok, () => false));) await sleep(250);
    window[1] = Date.now();
  }
  const t0 = Date.now();
  const at = (s) => sleep(Math.max(0, t0 + s * 1_000 - Date.now()));
  // The faults come no closer together than in CI's 120 s load: closer, the Temporal server still
  // restarting meets Postgres stopping and gives up for good (a 30 s load did). A shorter load keeps
  // this timeline, its faults going on while its journeys drain.
  const scale = Math.max(LOAD_MS, 120_000) / 150_000;
  const timeline = [
    (async () => { await at(12 * scale); fault('SIGKILL one api process', () => process.kill([...cluster.apiPids][0], 'SIGKILL')); })(),
    (async () => { await at(30 * scale); await fault('restart the Temporal server', () => cluster.temporal.restart()); })(),
    (async () => {
      await at(50 * scale);
      const window = [Date.now(), null];
      windows.pgDown.push(window);
      const probing = probeWhile(window);
      await fault('stop Postgres', () => cluster.postgres.pg.stop());
      await sleep(8_000);
      await fault('start Postgres', () => cluster.postgres.pg.start());
      window[1] = Date.now();
      await probing;
    })(),
    (async () => {
      await at(80 * scale);
      // A short load (CHAOS_LOAD_SECONDS) brings this within the stop above: Postgres must be up to be frozen.
      while (windows.pgDown.some(([, to]) => to === null)) await sleep(250);
      const pids = postmasterPids();
      const window = [Date.now(), null];
      windows.pgFrozen.push(window);
      const probing = probeWhile(window);
      fault(`SIGSTOP Postgres (${pids.length} processes) for 30 s`, () => pids.forEach((pid) => process.kill(pid, 'SIGSTOP')));
      await sleep(30_000);
      fault('SIGCONT Postgres', () => pids.forEach((pid) => { try { process.kill(pid, 'SIGCONT'); } catch { /* exited */ } }));
      window[1] = Date.now();
      await probing;
    })(),
    (async () => { await at(70 * scale); await fault('stop the webhook receiver for 60 s', stopReceiver); await sleep(60_000); await fault('start the webhook receiver', startReceiver); })(),
    // The sandbox is every provider, the collection PSP among them: PIX paid before a kill must
    // still reach their titles (webhooks cut short are the sweep's to find).
    (async () => { await at(40 * scale); await providersDown('SIGKILL the collection PSP (the sandbox providers, restarted)'); })(),
    (async () => { await at(120 * scale); await providersDown('SIGKILL the sandbox providers (restarted)'); })(),
    // The escriturador drops every connection for a while, as a host that is down would: creation
    // refuses nothing for it, and signed operations wait in SIGNED instead of paying unregistered.
    (async () => {
      await at(14 * scale);
      await fault(`escriturador outage for ${REGISTRAR_OUTAGE_SECONDS} s (POST /v1/sandbox/registrar/outage)`, async () => {
        while ((await call('POST', '/v1/sandbox/registrar/outage', { body: { seconds: REGISTRAR_OUTAGE_SECONDS } })).status !== 200) await sleep(1_000);
      });
    })(),
    (async () => {
      for (let next = between(20, 30); next * 1_000 < LOAD_MS; next += between(20, 30)) {
        await at(next);
        const worker = cluster.workers[Math.floor(Math.random() * cluster.workers.length)];
        fault(`SIGKILL ${worker.name} (restarted)`, () => worker.kill('SIGKILL'));
      }
    })(),
  ];

  // The hourly collection sweep, run every 15 s instead (through its Temporal Schedule, as in
  // production), so the PIX whose webhooks are lost reach their titles within the run.
  // The hourly audit checkpoint every minute instead, so the faults fall between checkpoints.
  let sweeping = true;
  const sweeps = { triggered: 0, failed: 0, error: null };
  const checkpoints = { triggered: 0, failed: 0 };
  const sweeper = (async () => {
    const client = new Client({ connection: await Connection.connect({ address: cluster.temporal.address }) });
    for (let round = 1; sweeping; round += 1) {
      await sleep(15_000);
      try {
        await client.schedule.getHandle(COLLECTION_SWEEP_SCHEDULE_ID).trigger();
        sweeps.triggered += 1;
      } catch {
        sweeps.failed += 1;
      }
      if (round % 4 === 0) {
        await client.schedule.getHandle(AUDIT_CHECKPOINT_SCHEDULE_ID).trigger().then(() => { checkpoints.triggered += 1; }, () => { checkpoints.failed += 1; });
      }
    }
    await client.connection.close();
  })().catch((err) => { sweeps.error = err.message; });

  const running = [];
  while (Date.now() - t0 < LOAD_MS) {
    // Every journey's second title is paid by PIX; one in three of those webhooks is lost.
    const j = { n: journeys.length, stage: 'creating', error: null, staff: journeys.length % STAFF_EVERY === STAFF_EVERY - 1 };
    j.encumbered = !j.staff && j.n % ENCUMBERED_EVERY === 3;
    journeys.push(j);
    const staff = j.staff ? { approvers, amount: STAFF_AMOUNT } : {};
    running.push(journey(driver, j, { deadline: t0 + LOAD_MS + DRAIN_MS, pixWebhook: j.n % 3 === 0 ? 'lost' : 'once', nfe: true, encumbered: j.encumbered, ...staff }).catch((err) => { j.error = err.message; }));
    await sleep(1_500);
  }
  say(`chaos: load done (${journeys.length} journeys); draining`);
  await Promise.all(timeline);
  await Promise.all(running);
  sweeping = false;
  await sweeper;
  await sleep(5_000);

  // ---- the audit
  const db = new pg.Client({ connectionString: cluster.databaseUrl });
  // An audit that throws leaves this client open when the cluster stops: its lost connection is then no reason to crash over the audit's own error.
  db.on('error', (err) => say(`chaos: the audit's database connection: ${err.message}`));
  await db.connect();
  const temporal = new Client({ connection: await Connection.connect({ address: cluster.temporal.address }) });
  const rows = [];
  const check = (name, expected, actual, ok = expected === actual) => rows.push({ check: name, expected: String(expected), actual: String(actual), ok });
  const created = journeys.filter((j) => j.id);

  check('journeys created', journeys.length, created.length);
  const stuck = journeys.filter((j) => j.stage !== (j.encumbered ? 'cancelled_encumbered' : 'titles_paid'));
  check(`journeys to their end: every title paid, or (one in ${ENCUMBERED_EVERY}) CANCELLED receivable_encumbered`, journeys.length, journeys.length - stuck.length);
  check('contracts re-dispatched after CONTRACT_ERROR (the provider was down)', '-', journeys.filter((j) => j.redispatched).length, true);

  const readStatuses = async (ids) => new Map((await db.query('select id, lifecycle_status as status from operations where id = any($1)', [ids])).rows.map((r) => [r.id, r.status]));
  const readModel = await readStatuses(created.map((j) => j.id));
  const lifecycleOf = (description) => description.searchAttributes?.LifecycleStatus?.[0];
  const compare = async (ids) => {
    const compared = [];
    for (const id of ids) {
      const description = await temporal.workflow.getHandle(`operation-${id}`).describe();
      compared.push({ id, description, agrees: lifecycleOf(description) === readModel.get(id) });
    }
    return compared;
  };
  const everyWorkflow = await compare(created.map((j) => j.id));
  const badWorkflows = everyWorkflow.filter(({ description }) => ['FAILED', 'TIMED_OUT', 'TERMINATED'].includes(description.status.name)).length;
  // The read model is written by a local activity and the search attribute by the task that
  // completes after it, so the two may differ for as long as a workflow task takes to run again
  // (a worker just killed): only a disagreement that outlasts 30 s is one.
  let disagree = everyWorkflow.filter((c) => !c.agrees);
  for (const settleBy = Date.now() + 30_000; disagree.length > 0 && Date.now() < settleBy;) {
    await sleep(2_000);
    for (const [id, status] of await readStatuses(disagree.map((c) => c.id))) readModel.set(id, status);
    disagree = (await compare(disagree.map((c) => c.id))).filter((c) => !c.agrees);
  }
  for (const { id, description } of disagree) {
    say(`disagreement: operation ${id} read model ${readModel.get(id)}, workflow ${lifecycleOf(description)} (${description.status.name})`);
  }
  check('operations whose read model and workflow disagree (for 30 s)', 0, disagree.length);
  check('operation workflows Failed, timed out or terminated', 0, badWorkflows);
  let failedAnywhere = 0;
  // A collection sweep gives up after a few tries by design (the next run sweeps the same window): counted apart below.
  for await (const execution of temporal.workflow.list({ query: '(ExecutionStatus = "Failed" OR ExecutionStatus = "TimedOut") AND WorkflowType != "collectionSweep"' })) {
    failedAnywhere += 1;
    const history = failedAnywhere <= 5 ? await temporal.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory() : null;
    const failure = history?.events?.at(-1)?.workflowExecutionFailedEventAttributes?.failure;
    say(`failed workflow ${execution.workflowId}${failure ? `: ${failure.message}${failure.cause ? ` (cause: ${failure.cause.message})` : ''}` : ''}`);
  }
  check('any workflow Failed or timed out', 0, failedAnywhere);

  let wrongPayments = 0;
  // Every PIX payout the PSP settled, as it records it: what the ledger and the escriturador are audited against.
  const settledPayouts = [];
  for (const j of created) {
    const paid = ['PAID', 'SETTLED'].includes(readModel.get(j.id));
    let settled = 0;
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      const res = await fetch(`${cluster.sandboxUrl}/pix/payments?idempotency_key=${encodeURIComponent(`operation-${j.id}-pix-${attempt}`)}`);
      for (const p of (await res.json()).payments.filter((payment) => payment.status === 'SETTLED')) {
        settled += 1;
        settledPayouts.push({ operationId: j.id, idempotencyKey: p.idempotency_key, createdAt: p.created_at });
      }
    }
    if (settled !== (paid ? 1 : 0)) {
      wrongPayments += 1;
      say(`operation ${j.id} (${readModel.get(j.id)}) has ${settled} settled PIX payments`);
    }
  }
  check('operations without exactly one settled PIX when paid (none otherwise)', 0, wrongPayments);

  const psp = { url: `${cluster.sandboxUrl}/api-pix`, clientId: cluster.appEnv.PIX_COLLECTION_CLIENT_ID ?? 'sandbox-collection-client', clientSecret: cluster.appEnv.PIX_COLLECTION_CLIENT_SECRET ?? 'sandbox-collection-secret' };
  await auditPixCollection({ db, psp, journeys, since: t0 - 60_000, check });
  await auditLedger({ db, since: t0 - 60_000, check });
  await auditLedgerAgainstPsps({
    db, since: t0 - 60_000, settledPayouts, check,
    businessDates: [...new Set([t0, Date.now()].map((at) => businessDay.format(at)))],
    reconcile: (date) => approvers[0].call('POST', '/v1/backoffice/ledger/reconcile', { body: { business_date: date } }),
    psps: { payoutUrl: `${cluster.sandboxUrl}/pix`, collection: { url: psp.url, bearer: () => collectionPspBearer(psp) } },
  });
  await auditRegistration({
    db, since: t0 - 60_000, settledPayouts, check, holderDocument: REGISTRATION_HOLDER,
    escriturador: { url: `${cluster.sandboxUrl}/escriturador`, apiKey: cluster.appEnv.REGISTRAR_API_KEY ?? 'sandbox-registrar-key' },
  });
  let sweepsGivenUp = 0;
  for await (const execution of temporal.workflow.list({ query: 'ExecutionStatus = "Failed" AND WorkflowType = "collectionSweep"' })) if (execution.type === 'collectionSweep') sweepsGivenUp += 1;
  check('collection sweeps triggered (not triggered: Temporal restarting; given up: the api or PSP down)', '>0', `${sweeps.triggered} (${sweeps.failed}; ${sweepsGivenUp})${sweeps.error ? ` ${sweeps.error}` : ''}`, sweeps.triggered > 0 && !sweeps.error);

  const eventsOfSubscription = async () => (await db.query(`
    select e.event_id, e.event_type, e.created_at from events e join webhook_subscriptions s on s.id = $1
    where e.originator_id = s.originator_id and e.event_type = any(s.event_types) and e.created_at >= s.created_at`, [subscription.body.id])).rows;
  // Events recorded by the last payments are still on their way (dispatch, workflow, delivery): a
  // delivery is judged once it had the time of its schedule's first attempts, not at an instant.
  const deliveryDeadline = Date.now() + 60_000;
  let expectedEvents = await eventsOfSubscription();
  while (expectedEvents.some((e) => !received.has(e.event_id)) && Date.now() < deliveryDeadline) {
    await sleep(1_000);
    expectedEvents = await eventsOfSubscription();
  }
  const missing = expectedEvents.filter((e) => !received.has(e.event_id));
  for (const e of missing.slice(0, 10)) say(`not delivered: ${e.event_type} ${e.event_id} recorded ${e.created_at.toISOString()}`);
  check('events recorded for the subscription', expectedEvents.length, expectedEvents.length, expectedEvents.length > 0);
  check('events not delivered', 0, missing.length);
  check('events delivered more than once (allowed: at least once)', '-', [...received.values()].filter((n) => n > 1).length, true);

  const { rows: [exposure] } = await db.query(`
    with open as (select originator_id, assignor_id, payer_id, outstanding_balance b from titles where title_counts_as_exposure(status)),
    expected as (
      select originator_id, 'originator' scope, originator_id entity_id, sum(b) amount from open group by 1
      union all select originator_id, 'assignor', assignor_id, sum(b) from open group by 1, 3
      union all select originator_id, 'payer', payer_id, sum(b) from open group by 1, 3)
    select count(*)::int as wrong from expected e full join exposure_counters c using (originator_id, scope, entity_id)
    where coalesce(e.amount, 0) <> coalesce(c.open_exposure, 0)`);
  check('exposure counters differing from sums of titles', 0, exposure.wrong);

  await auditStaffActions({ db, cluster, journeys, checkpoints, temporal, check, scheduleId: AUDIT_CHECKPOINT_SCHEDULE_ID, log: CHECKPOINT_LOG });

  /** The events of the operation workflow a request touched, from 15 s before it to 5 s after its answer, timed from its start. */
  async function workflowEventsAround(r) {
    if (!r.id) return null;
    const { rows: [owner] } = await db.query('select operation_id as id from titles where id = $1 union all select id from operations where id = $1', [r.id]);
    if (!owner) return null;
    const { events } = await temporal.workflow.getHandle(`operation-${owner.id}`).fetchHistory();
    const at = (e) => Number(e.eventTime.seconds) * 1_000 + Math.round(e.eventTime.nanos / 1e6);
    return events.filter((e) => at(e) >= r.started - 15_000 && at(e) <= r.started + r.ms + 5_000).map((e) => {
      const kind = Object.keys(e).find((k) => k.endsWith('EventAttributes') && e[k]);
      const attrs = e[kind];
      const detail = [attrs.identity, attrs.timeoutType && `timeout ${attrs.timeoutType}`, attrs.taskQueue?.name, attrs.markerName, attrs.cause && `cause ${attrs.cause}`].filter(Boolean).join(' ');
      return `${at(e) - r.started} ms ${kind.replace('EventAttributes', '')} ${detail}`;
    });
  }
  const outages = [...windows.pgDown, ...windows.pgFrozen];
  // A request caught by one of `list`'s outages: in flight when it began, or sent before it ended (or 10 s after).
  const caughtBy = (list) => (r) => list.some(([from, to]) => r.started + r.ms >= from && r.started <= to + 10_000);
  const postgresOut = caughtBy(outages);
  // Temporal keeps its state in the same Postgres, so while it is out (and for the 10 s it may take
  // to recover) an update may answer 503 workflow_unavailable as well as database_unavailable.
  const OUTAGE_CODES = ['database_unavailable', 'workflow_unavailable'];
  // While the sandbox is dead, and for 10 s after, a provider's route answers 502 naming it (the contract's answer; the journeys retry).
  const PROVIDER_CODES = ['esign_unavailable', 'pix_unavailable', 'pix_collection_unavailable', 'registrar_unavailable'];
  const providersOut = caughtBy(providerOutages);
  const providerAnswer = (r) => r.status === 502 && PROVIDER_CODES.includes(r.code) && providersOut(r);
  const outside = requests.filter((r) => r.status >= 500 && !(r.status === 503 && OUTAGE_CODES.includes(r.code) && postgresOut(r)) && !providerAnswer(r));
  // A worker killed while it held the workflow task that carries an update: Temporal gives the task
  // to another worker only when it times out (10 s), and under load that worker may take more
  // seconds to reach it, past the update's deadline. Then 503 workflow_unavailable is the contract's
  // answer (the client retries; every payment is audited above for being applied once). Only such a
  // request is excused: a worker SIGKILLed while it was in flight (or up to 15 s before it, the task
  // still bound to that worker), and the workflow's history showing the task timed out within it.
  const workerKills = faults.filter((f) => /^SIGKILL worker/.test(f.what)).map((f) => f.at);
  const crashedWorkerAnswers = [];
  const unexpected5xx = [];
  for (const r of outside) {
    const candidate = r.status === 503 && r.code === 'workflow_unavailable' && workerKills.some((at) => at >= r.started - 15_000 && at <= r.started + r.ms);
    if (candidate) r.workflowAround = await workflowEventsAround(r);
    const taskTimedOut = candidate && (r.workflowAround ?? []).some((event) => / workflowTaskTimedOut /.test(event));
    (taskTimedOut ? crashedWorkerAnswers : unexpected5xx).push(r);
  }
  for (const r of unexpected5xx.slice(0, 10)) {
    say(`unexpected ${r.status} ${r.code} ${r.method} ${r.url} after ${r.ms} ms, ${Math.round((r.started - t0) / 1000)} s into the load`);
    if (r.workflowAround === undefined) r.workflowAround = await workflowEventsAround(r);
    for (const event of r.workflowAround ?? []) say(`  ${event}`);
  }
  check('5xx besides 503s while Postgres was out, and 502s naming a provider while the sandbox was (each and 10 s after)', 0, unexpected5xx.length);
  check('502 naming a provider while the sandbox was down (the contract\'s answer)', '-', requests.filter(providerAnswer).length, true);
  check('503 workflow_unavailable from an update whose workflow task died with its worker (the contract\'s answer)', '-', crashedWorkerAnswers.length, true);
  check('503 database_unavailable while Postgres was out', '>0', requests.filter((r) => r.status === 503 && postgresOut(r)).length, requests.some((r) => r.status === 503 && postgresOut(r)));
  const duringOutage = requests.filter((r) => outages.some(([from, to]) => r.started >= from && r.started <= to));
  // A creation also asks SEFAZ and then the escriturador before it writes, each within its own
  // budget (SEFAZ_CREATION_BUDGET_MS, REGISTRAR_CREATION_BUDGET_MS: 800 ms by default), time that is
  // not Postgres's: one begun as Postgres came back spends them between its waits on it.
  const CREATION_LOOKUPS_MS = 800 + 800;
  const CREATING = new Set(['/v1/operations/direct', '/v1/stock/request-anticipation']);
  const boundOf = (r) => 2_000 + (r.method === 'POST' && CREATING.has(r.url) ? CREATION_LOOKUPS_MS : 0);
  const overBound = duringOutage.filter((r) => r.ms > boundOf(r));
  const slowest = Math.max(0, ...duringOutage.map((r) => r.ms));
  check('answers while Postgres was down or frozen slower than 2000 ms (creations: + their look-ups\' 1600 ms); slowest', `0; -`, `${overBound.length}; ${slowest}`,
    overBound.length === 0 && duringOutage.every((r) => r.status !== 0));
  for (const r of duringOutage.filter((o) => o.ms > 1_800)) say(`slow during the outage: ${r.ms} ms ${r.status} ${r.code ?? ''} ${r.method} ${r.url}`);
  for (const [name, list] of Object.entries(windows)) {
    for (const [, back] of list) {
      const first = requests.find((r) => r.started >= back && r.status === 200);
      const after = first ? first.started + first.ms - back : Infinity;
      check(`first 200 after Postgres ${name === 'pgDown' ? 'restarted' : 'resumed'} (ms)`, '<= 10000', after, after <= 10_000);
    }
  }
  const unanswered = requests.filter((r) => r.status === 0);
  check('requests without an answer (connections cut when an api process was killed)', '-', unanswered.length, unanswered.every((r) => r.error !== 'timeout'));

  const width = (k) => Math.max(k.length, ...rows.map((r) => r[k].length));
  const line = (r) => `| ${r.check.padEnd(width('check'))} | ${r.expected.padEnd(width('expected'))} | ${r.actual.padEnd(width('actual'))} | ${r.ok === true ? 'ok' : r.ok === false ? 'MISS' : r.ok} |`;
  process.stdout.write(`\nFaults: ${faults.map((f) => `${Math.round((f.at - t0) / 1000)}s ${f.what}`).join('; ')}\n`);
  process.stdout.write(`Requests: ${requests.length}; restarts: api processes ${cluster.apis.restarts}, workers ${cluster.workers.map((w) => w.restarts).join('+')}, sandbox ${cluster.sandbox.restarts}\n\n`);
  process.stdout.write(`${line({ check: 'check', expected: 'expected', actual: 'actual', ok: 'result' })}\n`);
  for (const r of rows) process.stdout.write(`${line(r)}\n`);
  misses = rows.filter((r) => !r.ok).length;
  process.stdout.write(`\n${misses === 0 ? 'chaos audit: zero misses' : `chaos audit: ${misses} MISSES`}\n`);
  const stages = {};
  for (const j of stuck) stages[`${j.stage}: ${j.error}`] = (stages[`${j.stage}: ${j.error}`] ?? 0) + 1;
  for (const [stage, count] of Object.entries(stages)) say(`${count} journeys stopped at ${stage}`);
  // Everything the audit judged, for a closer look after the cluster is gone.
  const report = path.join(ROOT, '.data', 'chaos-report.json');
  writeFileSync(report, JSON.stringify({ rows, faults, windows, providerOutages, journeys, requests: requests.filter((r) => r.status === 0 || r.status >= 500 || r.ms > 1_800) }, null, 1));
  say(`details in ${path.relative(ROOT, report)}`);

  await db.end();
  await temporal.connection.close();
} finally {
  await stopReceiver().catch(() => undefined);
  await cluster.stop();
}
process.exit(misses === 0 ? 0 : 1);
