/**
 * Event recorded → first webhook delivery attempt, at a steady rate: the real dispatcher
 * (LISTEN/NOTIFY), Temporal dev server, worker and activity, and a real HTTPS receiver on
 * loopback. The clock starts when the event row has committed (what a recording activity
 * awaits) and stops when the receiver has read the request.
 *
 *   npx tsx bench/webhooks/first-attempt.ts [events per second, default 25] [seconds, default 20]
 *
 * Worker, receiver and producer share this process on this 2-core machine, beside Postgres and
 * the Temporal dev server.
 */
import { v7 as uuidv7 } from 'uuid';
import { recordEvent } from '../../db/repositories/events';
import { WebhookSubscriptionRepository } from '../../db/repositories/webhooks';
import { DEV_SEED } from '../../db/seeds/dev-seed';
import { newWebhookSecret } from '../../domain/webhook-signature';
import { startWorker } from '../../worker/main';
import { RECEIVER_HOST, startReceiver, testCa } from '../../test/support/https-receiver';
import { fixedResolver } from '../../test/support/webhooks';
import { startBenchInfra } from '../support/stack';
import { summary } from '../support/summary';
import { CipherRing } from '../../platform/crypto/cipher-ring';

const RATE = Number(process.argv[2] ?? 25);
const SECONDS = Number(process.argv[3] ?? 20);
const WARMUP = 25;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const infra = await startBenchInfra('webhooks');
  const receiver = await startReceiver(() => 200);
  const originatorId = DEV_SEED.originators[0].id;
  const config = infra.config({ WEBHOOKS_ALLOW_PRIVATE_HOSTS: 'true', WEBHOOKS_EXTRA_CA_PEM: (await testCa()).caPem });
  await new WebhookSubscriptionRepository(infra.db, originatorId).create({
    id: uuidv7(), url: receiver.url('/bench'), eventTypes: ['operation.approved'], description: 'bench', sealedSecret: new CipherRing(config.payloadKeys).sealText(newWebhookSecret()),
  });
  const worker = await startWorker(config, { resolveHost: fixedResolver({ [RECEIVER_HOST]: ['127.0.0.1'] }) });

  const recordedAt = new Map<string, number>();
  const total = WARMUP + RATE * SECONDS;
  const begin = performance.now();
  const cpuBefore = process.cpuUsage();
  for (let i = 0; i < total; i += 1) {
    const wait = begin + (i * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const eventId = uuidv7();
    void recordEvent(infra.db, { eventId, originatorId, eventType: 'operation.approved', occurredAt: new Date(), data: { originator_id: originatorId, operation_id: uuidv7(), n: i } })
      .then(() => recordedAt.set(eventId, performance.now()));
  }
  const produced = (performance.now() - begin) / 1000;
  for (const deadline = Date.now() + 60_000; receiver.requests.length < total && Date.now() < deadline;) await sleep(100);
  const cpu = process.cpuUsage(cpuBefore);

  // The receiver stamps wall-clock time; performance.timeOrigin puts it on the producer's clock.
  const arrived = new Map(receiver.requests.map((r) => [r.body.event_id as string, r.receivedAt - performance.timeOrigin]));
  const measured = [...recordedAt.entries()].slice(WARMUP);
  const latencies = measured.filter(([id]) => arrived.has(id)).map(([id, at]) => arrived.get(id)! - at);
  const s = summary(latencies);
  // Where the time goes: the dispatcher's share (row written → workflow started and row marked).
  const dispatch = summary((await infra.db('events').whereIn('event_id', measured.map(([id]) => id))
    .select(infra.db.raw('extract(epoch from dispatched_at - created_at) * 1000 as ms'))).map((r: { ms: string }) => Number(r.ms)));
  process.stdout.write(`${JSON.stringify({
    offered_per_second: RATE, seconds: SECONDS, produced_in_seconds: Number(produced.toFixed(1)),
    measured: measured.length, not_delivered_within_60s: measured.length - latencies.length,
    p50_ms: Math.round(s.p50), p99_ms: Math.round(s.p99), max_ms: Math.round(s.max),
    dispatched_p50_ms: Math.round(dispatch.p50), dispatched_p99_ms: Math.round(dispatch.p99),
    // Load-independent cost: CPU of this process (dispatcher, worker, receiver, producer) per event.
    cpu_ms_per_event: Number(((cpu.user + cpu.system) / 1000 / total).toFixed(1)),
  }, null, 2)}\n`);
  await worker.stop();
  await receiver.close();
  await infra.stop();
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
