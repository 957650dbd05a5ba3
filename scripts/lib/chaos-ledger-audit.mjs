// The fault run's audit of the ledger (issue #48): whatever faults hit the run, every ledger
// transaction balances, every originator's trial balance is even, and each PIX payout the PSP
// answered is booked once, as it ended: posted when settled, voided when refused, none left pending.

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
