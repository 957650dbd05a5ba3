import { expect } from 'chai';
import { Dec, Money } from '../../domain/money';
import { ProductsRepository } from '../../db/repositories/products';
import type { ApiClient } from './http';
import { cnpj, nfeOf } from './documents';
import { createDirect, directBody } from './operations';
import { receivable } from './simulate';
import { signAll, untilStatus } from './lifecycle';
import { testDb } from './stack';
import { eventually } from './webhooks';
import { readyClock } from './test-clocks';

const HOUR_MS = 3_600_000;

/** A product of the originator that requires the payer's confirmation, waited for `deadlineDays`. */
export async function buildConfirmingProduct(originatorId: string, deadlineDays: number): Promise<string> {
  return (await new ProductsRepository(testDb(), originatorId).create({
    name: 'Confirmed NF-e only', description: null, minMonthlyRatePct: new Dec('1'), maxMonthlyRatePct: new Dec('10'), minTermDays: 1, maxTermDays: 365,
    minValueBrl: Money.of('1.00'), maxValueBrl: Money.of('1000000.00'), active: true, payerConfirmation: { policy: 'required', deadlineDays },
  })).id;
}

export const noPix = async (operationId: string) => expect(await testDb()('disbursements').where({ operation_id: operationId }).select('id')).to.deep.equal([]);

/**
 * An operation of the product on a fresh test clock, signed, with one receivable backed by a fresh
 * NF-e of the assignor (authorized, its payer silent): held in SIGNED, waiting for the payer.
 */
export async function signedAwaitingPayer(client: ApiClient, token: string, productId: string) {
  const frozenTime = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS).toISOString();
  const clock = await readyClock(client, token, frozenTime);
  const assignor = cnpj();
  const nfe = nfeOf(assignor);
  const body = directBody({ cnpj: assignor, product_id: productId, test_clock_id: clock.id, receivables: [receivable({ external_id: 'NF-PAYER', ...nfe })] });
  const res = await createDirect(client, token, body);
  expect(res.status, res.text).to.equal(201);
  const id = res.body.id as string;
  await untilStatus(client, token, id, 'CONTRACT_SENT');
  await signAll(client, token, id);
  const waiting = await eventually(async () => {
    const read = (await client.get(`/v1/operations/${id}`, { token })).body;
    expect(read.lifecycle_status).to.equal('SIGNED');
    expect(read.titles[0].nfe_check).to.include({ status: 'pending', reason: 'payer_confirmation_missing', payer_event: null });
    return read;
  }, 60_000);
  await noPix(id);
  return { id, key: nfe.nfe_key, clock, body, check: waiting.titles[0].nfe_check as { cstat: string; xmotivo: string } };
}
