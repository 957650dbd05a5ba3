// The fault run's audit of the ledger (issue #48): whatever faults hit the run, every ledger
// transaction balances, every originator's trial balance is even, and each PIX payout the PSP
// answered is booked once, as it ended: posted when settled, voided when refused, none left pending.
// Then the books against the PSPs' own records: reconciliation, each cash account, each payout.

import { say } from './infra.mjs';

/**
 * `db`: a pg client on the run's database; `since`: the run's start (epoch ms), so rows of an
 * earlier run on the same data are left out; `check(name, expected, actual)` records a row.
 */
export async function auditLedger({ db, since, check }) {
  const { rows: [{ count: unbalanced }] } = await db.query(`
    select count(*)::int as count from (
      select t.id from ledger_transactions t left join ledger_entries e on e.transaction_id = t.id
      where t.recorded_at >= $1
      group by t.id having count(e.id) < 2 or sum(case e.direction when 'debit' then e.amount_cents else -e.amount_cents end) <> 0
    ) u`, [new Date(since)]);
  check('ledger transactions that do not balance', 0, unbalanced);

  const { rows: [{ count: uneven }] } = await db.query(`
    select count(*)::int as count from (
      select t.originator_id from ledger_transactions t join ledger_entries e on e.transaction_id = t.id
      where t.status = 'posted'
      group by t.originator_id having sum(case e.direction when 'debit' then e.amount_cents else -e.amount_cents end) <> 0
    ) u`);
  check('originators whose trial balance is not even', 0, uneven);

  const { rows: payouts } = await db.query(`
    select d.id, d.status,
      count(t.id) filter (where t.status = 'posted')::int as posted,
      count(t.id) filter (where t.status = 'voided')::int as voided,
      count(t.id) filter (where t.status = 'pending')::int as pending
    from disbursements d
    left join ledger_transactions t on t.originator_id = d.originator_id and t.idempotency_key = 'payout:' || d.id
    where d.amount > 0 and d.created_at >= $1
    group by d.id, d.status`, [new Date(since)]);
  check('PIX payouts the PSP settled not posted exactly once in the ledger', 0, payouts.filter((p) => p.status === 'SETTLED' && p.posted !== 1).length);
  check('PIX payouts the PSP refused not voided in the ledger', 0, payouts.filter((p) => p.status === 'REJECTED' && p.voided !== 1).length);
  check('PIX payouts without their pending transfer while the PSP has not answered', 0, payouts.filter((p) => p.status === 'PENDING' && p.pending !== 1).length);
}

const cents = (value) => Math.round(Number(value) * 100);

/** Each PSP account's closing balance now, from its own statement (both sandbox accounts start empty and are never swept). */
async function pspClosingBalances({ payoutUrl, collection }) {
  const to = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
  const from = encodeURIComponent(new Date(0).toISOString());
  const payout = await fetch(`${payoutUrl}/statement?from=${from}&to=${to}&page=0&page_size=1`);
  if (!payout.ok) throw new Error(`the payout PSP's statement answered ${payout.status}`);
  const extrato = await fetch(`${collection.url}/v2/sandbox/extrato?inicio=${from}&fim=${to}&paginacao.itensPorPagina=1`, { headers: { Authorization: `Bearer ${await collection.bearer()}` } });
  if (!extrato.ok) throw new Error(`the collection PSP's statement answered ${extrato.status}`);
  return { payout: cents((await payout.json()).closing_balance), collection: cents((await extrato.json()).saldoFinal) };
}

/**
 * After the journeys settled: staff's reconciliation of every business date the run touched
 * (`reconcile(date)` answers the api's `{ status, body }`), each PSP's `psp_cash` (every
 * originator's account on it) against the PSP's own closing balance, and each PIX payout the PSP
 * settled (`settledPayouts`: `idempotencyKey`) posted once as a payout, none posted without one.
 */
export async function auditLedgerAgainstPsps({ db, since, businessDates, reconcile, psps, settledPayouts, check }) {
  const answers = [];
  for (const date of businessDates) answers.push(await reconcile(date));
  const refused = answers.filter((a) => a.status !== 200);
  for (const a of refused) say(`the ledger reconciliation answered ${a.status}: ${JSON.stringify(a.body)}`);
  const mismatches = answers.reduce((n, a) => n + (a.body?.mismatch_count ?? 0), 0);
  check(`ledger reconciliation mismatches (staff's POST /v1/backoffice/ledger/reconcile, ${businessDates.join(', ')})`, 0, refused.length > 0 ? `${mismatches}; ${refused.length} refused` : mismatches, refused.length === 0 && mismatches === 0);

  const { rows } = await db.query(`
    select a.psp, coalesce(sum(case e.direction when 'debit' then e.amount_cents else -e.amount_cents end), 0)::bigint as cents
    from ledger_accounts a join ledger_entries e on e.account_id = a.id join ledger_transactions t on t.id = e.transaction_id
    where a.kind = 'psp_cash' and t.status = 'posted' group by a.psp`);
  const booked = new Map(rows.map((r) => [r.psp, Number(r.cents)]));
  const atPsp = await pspClosingBalances(psps);
  for (const psp of ['payout', 'collection']) {
    check(`psp_cash of the ${psp} PSP (cents) against its statement's closing balance`, atPsp[psp], booked.get(psp) ?? 0);
  }

  const keys = settledPayouts.map((p) => p.idempotencyKey);
  const { rows: posted } = await db.query(`
    select d.idempotency_key, count(t.id) filter (where t.status = 'posted')::int as posted
    from disbursements d left join ledger_transactions t on t.originator_id = d.originator_id and t.idempotency_key = 'payout:' || d.id
    where d.idempotency_key = any($1) group by d.idempotency_key`, [keys]);
  const postedOf = new Map(posted.map((r) => [r.idempotency_key, r.posted]));
  const notOnce = keys.filter((key) => postedOf.get(key) !== 1);
  for (const key of notOnce.slice(0, 10)) say(`PIX payout ${key} settled at the PSP, posted ${postedOf.get(key) ?? 0} times in the ledger`);
  const { rows: [{ count: unsettled }] } = await db.query(`
    select count(*)::int as count from ledger_transactions t join disbursements d on t.idempotency_key = 'payout:' || d.id and t.originator_id = d.originator_id
    where t.kind = 'payout' and t.status = 'posted' and t.recorded_at >= $1 and not (d.idempotency_key = any($2))`, [new Date(since), keys]);
  check('PIX payouts the PSP settled not posted exactly once (posted payouts the PSP did not settle)', '0 (0)', `${notOnce.length} (${unsettled})`, notOnce.length === 0 && unsettled === 0);
}
