// The fault run's audit of the escriturador: whatever faults hit the run (its outages among them),
// no PIX left while a title's act was not registered, and no act of ours stays in force on an
// operation that fell through. The escriturador's own record, read over HTTP, is the truth: our
// `title_registrations` rows say what we believe, which is what is being audited.
import { say } from './infra.mjs';

// An NF-e's fingerprint is `nfe:<key>`; the key's model is its characters 21-22 (1-based), so the fingerprint's 25-26.
const NFE_TITLES = `select t.id, t.operation_id, substr(t.receivable_fingerprint, 5) as key from titles t
  where t.operation_id = any($1) and t.receivable_fingerprint like 'nfe:%' and substr(t.receivable_fingerprint, 25, 2) = '55'`;

/** Every act the escriturador recorded on the duplicatas of an NF-e key, as its API answers them. */
function escrituradorActs({ url, apiKey }) {
  const get = async (path) => {
    const res = await fetch(`${url}${path}`, { headers: { Authorization: `Bearer ${apiKey}` }, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`the escriturador answered ${res.status} to GET ${path}`);
    return res.json();
  };
  return async (key) => {
    const { duplicatas } = await get(`/escrituracao/duplicatas?chave_nfe=${key}`);
    const acts = [];
    for (const duplicata of duplicatas) acts.push(...(await get(`/escrituracao/duplicatas/${encodeURIComponent(duplicata.id)}`)).atos);
    return acts;
  };
}

/**
 * `escriturador`: its API base (`…/escriturador`) and key; `holderDocument`: whom our acquisitions
 * make holder; `settledPayouts`: each PIX payout the payout PSP settled (`operationId`, `createdAt`:
 * when the order reached the PSP); `since`: the run's start (epoch ms); `check(name, expected,
 * actual, ok)` records a row.
 */
export async function auditRegistration({ db, escriturador, holderDocument, settledPayouts, since, check }) {
  const actsOn = escrituradorActs(escriturador);
  const ours = (act) => act.tipo === 'endosso' && act.para === holderDocument;
  const titlesOf = async (operationIds) => (await db.query(NFE_TITLES, [operationIds])).rows;

  // An act in force when the PIX was ordered: registered before it, not cancelled by then.
  const inForceAt = (at) => (act) => ours(act) && Date.parse(act.registrado_em) <= at && (act.cancelado_em == null || Date.parse(act.cancelado_em) > at);
  const paidTitles = await titlesOf(settledPayouts.map((p) => p.operationId));
  let unregistered = 0;
  for (const payout of settledPayouts) {
    const orderedAt = Date.parse(payout.createdAt);
    const bare = [];
    for (const title of paidTitles.filter((t) => t.operation_id === payout.operationId)) {
      if (!(await actsOn(title.key)).some(inForceAt(orderedAt))) bare.push(title.id);
    }
    if (bare.length > 0) {
      unregistered += 1;
      say(`operation ${payout.operationId}: PIX ordered ${payout.createdAt} while the escriturador held no act of ours on title(s) ${bare.join(', ')}`);
    }
  }
  check('NF-e titles of paid operations read at the escriturador', '>0', paidTitles.length, paidTitles.length > 0);
  check('PIX payouts ordered while a title\'s act was not registered at the escriturador', 0, unregistered);

  const { rows: fellThrough } = await db.query(`select id, lifecycle_status, cancellation_reason from operations
    where lifecycle_status in ('CANCELLED', 'DENIED') and created_at >= $1`, [new Date(since)]);
  const encumbered = fellThrough.filter((o) => o.cancellation_reason === 'receivable_encumbered').length;
  const leftTitles = await titlesOf(fellThrough.map((o) => o.id));
  let leftInForce = 0;
  for (const title of leftTitles) {
    const inForce = (await actsOn(title.key)).filter((act) => ours(act) && act.situacao === 'registrado');
    leftInForce += inForce.length;
    for (const act of inForce) say(`operation ${title.operation_id} fell through, yet act ${act.id} of ours on title ${title.id} is in force at the escriturador`);
  }
  check('operations cancelled or denied (receivable_encumbered), their NF-e titles read at the escriturador', '>0', `${fellThrough.length} (${encumbered}), ${leftTitles.length}`, leftTitles.length > 0);
  check('acts of ours left in force at the escriturador on cancelled or denied operations', 0, leftInForce);
}
