/**
 * Issue #27: with 1,000,000 events stored, the filtered list and the 30-day expiry stay
 * index-driven. Seeds the events by SQL, runs the repository's own queries with EXPLAIN (ANALYZE,
 * BUFFERS) (the page's hand-written statement, the others captured from knex, so the plans are of
 * the SQL the api sends), prints them and fails when one reads the events table sequentially.
 *
 *   npx tsx bench/events/explain.ts [--events 1000000] [--originators 20]
 */
import type { Knex } from 'knex';
import { escapeLiteral } from 'pg';
import { EventFilter, EventLogRepository, eventPageStatement } from '../../db/repositories/event-log';
import { Statement, statementRows } from '../../db/statement';
import { purgeExpiredEvents } from '../../db/repositories/events';
import { keptSince } from '../../domain/event-retention';
import { startBenchInfra } from '../support/stack';
import { seedEvents } from './seed';
import { option } from '../support/options';

const EVENTS = Number(option('events', '1000000'));
const ORIGINATORS = Number(option('originators', '20'));
const say = (line: string) => process.stderr.write(`[bench:events:explain] ${line}\n`);

/** The statements `run` sends through knex (in pg's `$n` form), for EXPLAIN to run again. */
async function captured(db: Knex, run: () => Promise<unknown>): Promise<Statement[]> {
  const seen: Statement[] = [];
  const listener = (query: { sql: string; bindings?: readonly unknown[] }) => seen.push({ text: query.sql, values: query.bindings ?? [] });
  db.on('query', listener);
  try {
    await run();
  } finally {
    db.removeListener('query', listener);
  }
  return seen;
}

/**
 * The plan of `statement` run with its values; for a named (prepared) statement also the generic
 * plan Postgres may switch to after five executions, which cannot see the values.
 */
async function plansOf(trx: Knex.Transaction, statement: Statement): Promise<[string, string][]> {
  const text = (rows: { 'QUERY PLAN': string }[]) => rows.map((r) => r['QUERY PLAN']).join('\n');
  const plans: [string, string][] = [['', text(await statementRows(trx, { text: `explain (analyze, buffers, costs off) ${statement.text}`, values: statement.values }))]];
  if (statement.name) {
    await trx.raw('set local plan_cache_mode = force_generic_plan');
    await trx.raw(`prepare explained as ${statement.text}`);
    // EXECUTE inside EXPLAIN takes no bind parameters: the values go as literals.
    const literals = statement.values.map((value) => escapeLiteral(value instanceof Date ? value.toISOString() : String(value))).join(', ');
    plans.push([' (prepared: its generic plan)', text((await trx.raw(`explain (analyze, buffers, costs off) execute explained(${literals})`)).rows)]);
  }
  return plans;
}

async function explain(db: Knex, label: string, statements: Statement[]): Promise<boolean> {
  let indexed = true;
  for (const statement of statements) {
    // EXPLAIN ANALYZE runs the statement: a delete is rolled back.
    const trx = await db.transaction();
    let plans: [string, string][];
    try {
      plans = await plansOf(trx, statement);
    } finally {
      await trx.rollback();
    }
    for (const [kind, plan] of plans) {
      const sequential = /Seq Scan on events\b/.test(plan);
      indexed &&= !sequential;
      process.stdout.write(`\n### ${label}${kind}${sequential ? ' — SEQUENTIAL SCAN' : ''}\n\n\`\`\`\n${statement.text}\n\n${plan}\n\`\`\`\n`);
    }
  }
  return indexed;
}

async function main(): Promise<void> {
  const infra = await startBenchInfra('events_explain');
  try {
    say(`seeding ${EVENTS} events over ${ORIGINATORS} originators`);
    const started = Date.now();
    const [busiest] = await seedEvents(infra.db, EVENTS, ORIGINATORS);
    say(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    const now = new Date();
    const events = new EventLogRepository(infra.db, busiest);
    const some = await infra.db('events').where({ originator_id: busiest }).where('occurred_at', '>=', keptSince(now)).orderBy('occurred_at', 'desc').offset(500).first('event_id', 'object_id');
    const base: EventFilter = { types: [], createdGte: null, createdLt: null, objectId: null, operationId: null, deliverySuccess: null, keptSince: keptSince(now) };
    const cases: [string, EventFilter, { after: string } | null][] = [
      ['newest 100, no filter', base, null],
      ['next page (starting_after)', base, { after: some.event_id }],
      ['type=title.paid,payable.paid', { ...base, types: ['title.paid', 'payable.paid'] }, null],
      ['created[gte]..created[lt], one day 20 days ago', { ...base, createdGte: new Date(now.getTime() - 20 * 86_400_000), createdLt: new Date(now.getTime() - 19 * 86_400_000) }, null],
      ['object_id', { ...base, objectId: some.object_id }, null],
      ['delivery_success=false', { ...base, deliverySuccess: false }, null],
    ];
    let indexed = true;
    process.stdout.write(`# EXPLAIN of the events list and expiry, ${EVENTS} events, ${ORIGINATORS} originators (the busiest one queried)\n`);
    for (const [label, filter, cursor] of cases) {
      // The cursor's own lookup, the page's ids, then its events read by key: what the route sends when none is kept rendered.
      const lookup = await captured(infra.db, async () => cursor && events.pageStart(cursor, filter.keptSince));
      const start = cursor && await events.pageStart(cursor, filter.keptSince);
      const page = await events.pageIds(filter, cursor, 100);
      const read = await captured(infra.db, async () => page && events.byIds(page.ids()));
      indexed = (await explain(infra.db, `GET /v1/events: ${label}`, [...lookup, eventPageStatement(busiest, filter, start, 100), ...read])) && indexed;
    }
    const expiry = await captured(infra.db, async () => {
      const trx = await infra.db.transaction();
      try {
        await purgeExpiredEvents(trx, keptSince(now));
      } finally {
        await trx.rollback();
      }
    });
    indexed = (await explain(infra.db, 'expiry: one batch of the purge', expiry.filter((s) => /^delete/i.test(s.text)).slice(0, 1))) && indexed;
    say(indexed ? 'every plan is index-driven' : 'a plan reads events sequentially');
    process.exitCode = indexed ? 0 : 1;
  } finally {
    await infra.stop();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack}\n`);
  process.exit(1);
});
