import { randomBytes, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { hashSecret } from '../../platform/crypto/passwords';
import { CLIENT_SCOPES } from '../../domain/principal';
import { Dec, Money } from '../../domain/money';
import { composeNfeKey } from '../../domain/nfe-key';
import { addDays, businessDate } from '../../domain/pricing';
import { PoliciesRepository } from '../../db/repositories/policies';
import { RegistrationSettingsRepository } from '../../db/repositories/registration-settings';
import { registrationSettings } from '../../domain/escriturador/negotiation';
import { cnpj } from '../../test/support/documents';

const PLENTY = Money.of('1000000000000.00');

/** One originator of the bench: its token and the documents its operations draw from. */
export interface Originator {
  token: string;
  assignors: string[];
  payers: string[];
}

/**
 * Originators with a credential and a policy every operation fits: limits far away, so the
 * engine runs its full path (per-operation, configuration, entity and aggregate sums) and
 * passes. `approved`: born APPROVED_DIRECT (the workflow then dispatches the contract to the
 * sandbox e-sign); otherwise born WAITING_APPROVAL (the workflow records its events and waits).
 * `registered`: each registers its titles' acquisitions at the sandbox escriturador (looked up at
 * creation, the act recorded before the PIX), as an originator with registration settings does.
 */
export async function seedOriginators(db: Knex, apiUrl: string, count: number, approved: boolean, payers = 20, { registered = false } = {}): Promise<Originator[]> {
  const originators: Originator[] = [];
  for (let i = 0; i < count; i += 1) {
    const originatorId = uuidv7();
    const clientId = `zk_sbx_bench_${randomBytes(6).toString('hex')}`;
    const secret = `sk_${randomBytes(12).toString('hex')}`;
    await db('originators').insert({ id: originatorId, name: `Bench originator ${i + 1}` });
    if (registered) await new RegistrationSettingsRepository(db).save(originatorId, registrationSettings({ registrar: 'sandbox', holderDocument: cnpj() }), new Date());
    await db('api_credentials').insert({
      id: uuidv7(), originator_id: originatorId, client_id: clientId, secret_hash: await hashSecret(secret), env: 'sandbox', scopes: [...CLIENT_SCOPES],
    });
    await new PoliciesRepository(db, originatorId).create({
      name: 'Bench policy', active: true, minOperationValueBrl: null, maxOperationValueBrl: null,
      autoApproveLimitBrl: approved ? PLENTY : null, aggregateLimitBrl: PLENTY, assignorDefaultLimitBrl: PLENTY, payerDefaultLimitBrl: PLENTY,
      riskAnchoring: 'both', minCetMonthlyPct: new Dec('0.5'), maxCetMonthlyPct: new Dec('15'),
      fees: { monthlyRatePct: new Dec('2.5'), discountPct: new Dec(0), fixedDiscountBrl: Money.ZERO, floatingDays: 0 },
      maxReceivablesPerOperation: 500, graceDays: 3,
    });
    const res = await fetch(`${apiUrl}/v1/auth/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ client_id: clientId, client_secret: secret }),
    });
    if (res.status !== 200) throw new Error(`token exchange: ${res.status} ${await res.text()}`);
    const { access_token: token } = await res.json() as { access_token: string };
    originators.push({ token, assignors: Array.from({ length: 100 }, cnpj), payers: Array.from({ length: payers }, cnpj) });
  }
  return originators;
}

const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)];
let invoices = Math.floor(Math.random() * 1e8);

/**
 * A direct creation with 10 receivables of 1,000.00 each (due in 30 to 120 days), one of 100
 * assignors, payers from the originator's pool; each an NF-e of that assignor issued this month
 * with its own valid key, so the key checks and the double-assignment guard run on every one.
 */
export function directBody(originator: Originator): Record<string, unknown> {
  const today = businessDate(new Date());
  const assignor = pick(originator.assignors);
  return {
    name: 'Bench Assignor Ltda', type: 'J', cnpj: assignor, email: 'bench@example.com', bank: {},
    receivables: Array.from({ length: 10 }, (_, i) => {
      invoices += 1;
      return {
        external_id: `NF-${i + 1}`, payer_name: 'Bench Payer', payer_document: pick(originator.payers), due_date: addDays(today, 30 + 10 * i),
        net_future_value: '1000.00', requested_net_future_value: '1000.00',
        nfe_number: String(invoices % 1e9), nfe_serie: '1', nfe_issue_date: today,
        nfe_key: composeNfeKey({ yearMonth: `${today.slice(2, 4)}${today.slice(5, 7)}`, issuer: assignor, serie: 1, number: invoices % 1e9, code: String(invoices % 1e8) }),
      };
    }),
  };
}

/** A request not answered within this long counts as failed (status 0), so an overloaded phase still ends. */
const TIMEOUT_MS = 30_000;

/** One creation over HTTP; resolves to the status once the body is read. */
export async function createOne(apiUrl: string, originator: Originator): Promise<number> {
  const res = await fetch(`${apiUrl}/v1/operations/direct`, {
    method: 'POST',
    signal: AbortSignal.timeout(TIMEOUT_MS),
    headers: { Authorization: `Bearer ${originator.token}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID() },
    body: JSON.stringify(directBody(originator)),
  });
  await res.arrayBuffer();
  return res.status;
}
