// The fault run's audit of collection by PIX (issue #31): the PSP's own list of the PIX it
// received is the truth, whatever answers, webhooks or restarts were lost on the way; each PIX
// must be on its title exactly once, and the title's paid amount must be what those PIX paid.
import { say } from './infra.mjs';

const cents = (value) => Math.round(Number(value) * 100);

/** A bearer for the collection PSP's API Pix, as the api's client gets one (client credentials). */
export async function collectionPspBearer(psp) {
  const basic = Buffer.from(`${psp.clientId}:${psp.clientSecret}`).toString('base64');
  const token = await fetch(`${psp.url}/oauth/token`, {
    method: 'POST', headers: { Authorization: `Basic ${basic}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials',
  });
  if (!token.ok) throw new Error(`the PSP's token endpoint answered ${token.status}`);
  return (await token.json()).access_token;
}

/** Every PIX the PSP received since `since`, through its API Pix as an auditor would read it. */
async function receivedAtPsp(psp, since) {
  const bearer = await collectionPspBearer(psp);
  const window = `inicio=${encodeURIComponent(new Date(since).toISOString())}&fim=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`;
  const list = await fetch(`${psp.url}/v2/pix?${window}`, { headers: { Authorization: `Bearer ${bearer}` } });
  if (!list.ok) throw new Error(`the PSP's PIX list answered ${list.status}`);
  return (await list.json()).pix.filter((pix) => pix.txid);
}

/**
 * `psp`: the collection PSP's base (`…/api-pix`) and OAuth2 client; `journeys`: each with the PIX
 * it paid (`pix`: titleId, endToEndId or null when the answer was lost, webhook); `check(name,
 * expected, actual, ok)` records a row of the audit.
 */
export async function auditPixCollection({ db, psp, journeys, since, check }) {
  const received = await receivedAtPsp(psp, since);
  const paidByJourneys = journeys.flatMap((j) => j.pix ?? []);
  const lost = paidByJourneys.filter((p) => p.webhook === 'lost' && p.endToEndId);
  check('PIX the PSP received against charges (of them paid with the webhook lost on purpose)', '>0 (>0)', `${received.length} (${lost.length})`, received.length > 0 && lost.length > 0);

  const { rows: charges } = await db.query('select txid, title_id from pix_charges where txid = any($1)', [received.map((p) => p.txid)]);
  const titleOf = new Map(charges.map((c) => [c.txid, c.title_id]));
  check('PIX received against a charge the api does not know', 0, received.filter((p) => !titleOf.has(p.txid)).length);

  const { rows: payments } = await db.query('select title_id, external_id, recorded_by from title_payments where external_id = any($1)', [received.map((p) => p.endToEndId)]);
  const paymentsOf = (pix) => payments.filter((row) => row.external_id === pix.endToEndId && row.title_id === titleOf.get(pix.txid));
  const notApplied = received.filter((pix) => paymentsOf(pix).length === 0);
  for (const pix of notApplied.slice(0, 10)) say(`PIX not applied: ${pix.endToEndId} (txid ${pix.txid}) received ${pix.horario}`);
  check('PIX received not applied to their title (no payer payment with its endToEndId)', 0, notApplied.length);
  check('PIX applied more than once (payer payments per endToEndId)', 0, received.filter((pix) => paymentsOf(pix).length > 1).length);

  // A title paid by PIX holds, as paid, what its PIX paid of the principal less what was refunded.
  const expected = new Map();
  for (const pix of received) {
    const title = titleOf.get(pix.txid);
    const refunded = pix.devolucoes.reduce((sum, d) => sum + cents(d.valor), 0);
    expected.set(title, (expected.get(title) ?? 0) + cents(pix.componentesValor.original.valor) - refunded);
  }
  const { rows: titles } = await db.query('select id, status, paid_amount from titles where id = any($1)', [[...expected.keys()]]);
  const wrong = titles.filter((t) => t.status !== 'PAID' || cents(t.paid_amount) !== expected.get(t.id));
  for (const t of wrong.slice(0, 10)) say(`title ${t.id} ${t.status} paid ${t.paid_amount}, its PIX paid ${(expected.get(t.id) / 100).toFixed(2)}`);
  check('titles paid by PIX not PAID, or whose paid amount differs from their PIX (less refunds)', 0, wrong.length);

  const swept = lost.filter((p) => payments.some((row) => row.external_id === p.endToEndId && row.recorded_by === 'psp:sweep'));
  check('PIX with the webhook lost on purpose, applied by the sweep', lost.length, swept.length);
}
