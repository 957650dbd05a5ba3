import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { signThroughPage } from '../../test/sandbox/support';
import type { ApiClient } from '../../test/support/http';
import { directBody, Originator } from '../creation/workload';

const POLL_MS = 250;
const GIVE_UP_MS = 120_000;
const SIGNABLE: readonly string[] = ['CONTRACT_SENT', 'SIGNED', 'DISBURSING', 'PAID'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Where an operation's wall-clock time went, in ms since its creation request (`at`). */
export interface Timeline { at: number; created: number; signable: number; signed: number; paid: number; signerReads: number }

export type Outcome = { id: string; timeline: Timeline } | { failure: string };

/**
 * One operation of `receivables` NF-e receivables from creation to PAID, as an integrator and a
 * signer would: `POST /v1/operations/direct` with embedded signing, the signers route once the
 * contract is out, each signer through the sandbox's signing page over HTTP, then PAID. `paid` is
 * when the operation's row turned PAID (its `updated_at`), so the polling does not blur it.
 *
 * How it learns that the contract can be signed: by default it watches the operation's row (one
 * indexed read) and asks the signers route once the row is CONTRACT_SENT; `pollSigners` polls the
 * signers route itself, as the first version of the bench did: every read is an api request that
 * calls the e-sign provider.
 */
export async function toPaid(db: Knex, client: ApiClient, originator: Originator, receivables: number, pollSigners = false): Promise<Outcome> {
  const startedAt = Date.now();
  const { token } = originator;
  const body = directBody(originator);
  const created = await client.post('/v1/operations/direct', { ...body, receivables: (body.receivables as unknown[]).slice(0, receivables), embedded_signature: true }, { token, headers: { 'Idempotency-Key': randomUUID() } });
  if (created.status !== 201) return { failure: `create ${created.status}` };
  const id = created.body.id;
  const timeline: Timeline = { at: startedAt, created: Date.now() - startedAt, signable: 0, signed: 0, paid: 0, signerReads: 0 };
  for (;;) {
    if (!pollSigners) {
      const row = await db('operations').where({ id }).first('lifecycle_status');
      if (!SIGNABLE.includes(row.lifecycle_status)) {
        if (Date.now() - startedAt > GIVE_UP_MS) return { failure: `not dispatched: ${row.lifecycle_status}` };
        await sleep(POLL_MS);
        continue;
      }
    }
    const signers = await client.get(`/v1/operations/${id}/contract/signers`, { token });
    timeline.signerReads += 1;
    if (signers.status === 200) {
      timeline.signable = Date.now() - startedAt;
      for (const signer of signers.body.signers) if (signer.sign_url) await signThroughPage(signer.sign_url);
      timeline.signed = Date.now() - startedAt;
      break;
    }
    if (Date.now() - startedAt > GIVE_UP_MS) return { failure: `not dispatched: ${signers.status}` };
    await sleep(POLL_MS);
  }
  for (;;) {
    const row = await db('operations').where({ id }).first('lifecycle_status', 'updated_at');
    if (row.lifecycle_status === 'PAID') {
      timeline.paid = row.updated_at.getTime() - startedAt;
      return { id, timeline };
    }
    if (Date.now() - startedAt > GIVE_UP_MS) return { failure: `timeout in ${row.lifecycle_status}` };
    await sleep(POLL_MS);
  }
}
