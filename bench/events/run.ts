/**
 * Issue #27's performance targets, measured in one run (NOT on a shared machine: the ratios need a
 * quiet one):
 * - `GET /v1/events?limit=100` and `GET /v1/operations?limit=50`, each against bare Express 5
 *   answering the same response bytes from memory (bench/events/bare-replay.ts): requests/s, the
 *   ratio (target ≥ 25 %), and CPU ms per request of the api and of Postgres;
 * - the Postgres CPU that recording an event adds to the transaction that makes it (target
 *   ≤ 1 ms): N transactions that each record one event against N that do the same round trips
 *   without it, Postgres CPU from /proc.
 *
 *   npx tsx bench/events/run.ts [--seconds 8] [--warmup 2] [--connections 10] [--events 10000] [--records 2000] [--only TEXT] [--profile-api DIR]
 *
 * --only TEXT: only the routes whose path contains TEXT (the recording figure is always taken).
 * --profile-api DIR: the api writes a V8 CPU profile to DIR on exit (bench/lifecycle/profile-summary.ts reads it).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { recordEvent } from '../../db/repositories/events';
import { cpuBetween, readCpu } from '../creation/cpu';
import { startStack, stackComponents } from '../creation/stack';
import { createOne, seedOriginators } from '../creation/workload';
import { seedEvents } from './seed';
import { option } from '../support/options';
import { apiProfileEnv } from '../support/profile-env';
import { AGAINST_BARE_HEADER, againstBare, loopOptions } from '../support/against-bare';
import { runBench } from '../support/run-bench';

const LOOP = loopOptions();
const EVENTS = Number(option('events', '10000'));
const RECORDS = Number(option('records', '2000'));
const ONLY = option('only', '');
const PROFILE_DIR = option('profile-api', '');
const OPERATIONS = 50;

async function main(): Promise<void> {
  const stack = await startStack({ worker: false, apiEnv: { RATE_LIMIT_ENABLED: 'false', ...apiProfileEnv(PROFILE_DIR) } });
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-events-'));
  try {
    const [originator] = await seedOriginators(stack.db, stack.apiUrl, 1, false, 20);
    for (let i = 0; i < OPERATIONS; i += 1) if ((await createOne(stack.apiUrl, originator)) !== 201) throw new Error(`creating operation ${i + 1}`);
    const { originator_id: originatorId } = JSON.parse(Buffer.from(originator.token.split('.')[1], 'base64url').toString('utf8'));
    // The integrator's own events beside other originators' bulk, so the list reads one tenant among many.
    await seedEvents(stack.db, EVENTS, 10);
    // The page polled here never moves, and a page that stays put is one autovacuum has passed
    // over in production: its heap pages all-visible, so the index-only page reads no heap. Left
    // unvacuumed, each request fetched its 101 rows from the heap (`Heap Fetches: 101`), which
    // under 10 connections cost Postgres about a quarter more per page (bench/README.md). The
    // bench's Postgres commits asynchronously, and a vacuum cannot mark a page whose rows'
    // commit is not yet flushed: this last insert commits synchronously, flushing every earlier one.
    await stack.db.transaction(async (trx) => {
      await trx.raw('set local synchronous_commit = on');
      await trx.raw(`
        insert into events (event_id, originator_id, event_type, object_id, sequence, data, occurred_at)
        select gen_random_uuid(), ?, 'operation.approved', gen_random_uuid(), 1, jsonb_build_object('operation_id', gen_random_uuid(), 'originator_id', ?::text, 'display_number', 'OP-' || n),
          now() - (n || ' seconds')::interval from generate_series(1, 500) n`, [originatorId, originatorId]);
    });
    await stack.db.raw('vacuum (analyze) events');
    const { relallvisible: allVisible, relpages: pages } = (await stack.db.raw("select relallvisible, relpages from pg_class where relname = 'events'")).rows[0];
    const components = await stackComponents(stack);
    const auth = { Authorization: `Bearer ${originator.token}` };
    const rows: string[] = [];
    for (const route of ['/v1/events?limit=100', `/v1/operations?limit=${OPERATIONS}`].filter((r) => r.includes(ONLY))) {
      rows.push(await againstBare(stack.apiUrl, route, auth, { api: components.api, postgres: components.postgres }, LOOP, folder));
    }

    // The same transaction with and without the event: what recording adds to Postgres.
    const postgres = { postgres: components.postgres };
    const transactions = async (withEvent: boolean) => {
      const before = readCpu(postgres);
      for (let i = 0; i < RECORDS; i += 1) {
        await stack.db.transaction(async (trx) => {
          await trx.raw('select id from originators where id = ? for update', [originatorId]);
          if (withEvent) {
            await recordEvent(trx, {
              eventId: uuidv7(), originatorId: originatorId, eventType: 'operation.approved', occurredAt: new Date(),
              data: { originator_id: originatorId, operation_id: uuidv7(), display_number: 'OP-BENCH' },
            });
          }
        });
      }
      return cpuBetween(before, readCpu(postgres)).postgres / RECORDS;
    };
    const without = await transactions(false);
    const withEvent = await transactions(true);
    process.stdout.write([
      `bench/events: ${LOOP.connections} connections, ${LOOP.seconds} s per scenario after ${LOOP.warmup} s; ${EVENTS} bulk events, vacuumed (${allVisible} of ${pages} heap pages all-visible); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      '',
      ...AGAINST_BARE_HEADER,
      ...rows,
      '',
      `Recording an event: ${(withEvent - without).toFixed(3)} ms of Postgres CPU added per transaction (${withEvent.toFixed(3)} with, ${without.toFixed(3)} without, ${RECORDS} each)`,
      '',
    ].join('\n'));
  } finally {
    await stack.stop();
  }
}

runBench(main);
