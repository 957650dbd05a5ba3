import type { Knex } from 'knex';
import { readAssignor, resolvePrimaryAccount, AssignorInput, BankInput } from '../../domain/assignor-registration';
import { RuleViolation, ValidationFailed } from '../../domain/errors';
import { businessDate, enforceCetBounds, normaliseFees, normaliseReceivables, priceOperation, Policy } from '../../domain/pricing';
import { AssignorsRepository, AssignorRow } from '../../db/repositories/assignors';
import { PayersRepository } from '../../db/repositories/payers';
import { PoliciesRepository } from '../../db/repositories/policies';
import { ProductsRepository } from '../../db/repositories/products';
import { NfeFields, writeOperation, WrittenOperation } from './write-operation';
import { openDebtOf } from './debt-netting';

interface DirectBody {
  bank: BankInput;
  receivables: (NfeFields & Record<string, unknown>)[];
  fees?: unknown;
  product_id?: string | null;
  policy_id?: string | null;
  embedded_signature?: boolean;
  [field: string]: unknown;
}

function refuseDuplicateExternalIds(externalIds: readonly string[]): void {
  const seen = new Set<string>();
  const errors = externalIds.flatMap((id, i) => {
    if (!seen.has(id)) { seen.add(id); return []; }
    return [{ loc: ['body', 'receivables', i, 'external_id'], msg: `external_id "${id}" appears more than once in this operation`, type: 'value_error', input: id }];
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
}

export function refuseTooMany(count: number, policy: Policy): void {
  if (count > policy.maxReceivablesPerOperation) throw new RuleViolation(`too_many_receivables_max_${policy.maxReceivablesPerOperation}`);
}

export async function requireProduct(db: Knex, originatorId: string, productId: string | null | undefined): Promise<string | null> {
  if (!productId) return null;
  if (!(await new ProductsRepository(db, originatorId).byId(productId))) {
    throw new RuleViolation({ code: 'product_not_found', message: `No product ${productId} for this originator`, product_id: productId });
  }
  return productId;
}

/** Contract bank rules 1–5: the account applies only when the assignor has none yet. */
async function registerAssignor(assignors: AssignorsRepository, input: AssignorInput, bank: BankInput | undefined): Promise<{ row: AssignorRow; created: boolean }> {
  const account = resolvePrimaryAccount(bank ?? {}, input);
  const { row, created } = await assignors.register(input, account);
  return { row: row.disbursement_method ? row : await assignors.setPrimaryAccountIfMissing(row.id, account), created };
}

/**
 * `POST /v1/operations/direct`: everything is checked before anything is written, and the
 * writes (assignor, payers, operation, titles, remainders, outbox) share the caller's transaction.
 */
export async function createDirectOperation(trx: Knex, originatorId: string, environment: string, body: DirectBody, now: Date): Promise<WrittenOperation> {
  const receivables = normaliseReceivables(body.receivables, { route: 'direct' });
  const fees = normaliseFees(body.fees, { route: 'direct' }, receivables);
  // Every refusal of the body comes before the first write (the assignor is registered below).
  const assignorInput = readAssignor(body as never);
  refuseDuplicateExternalIds(receivables.map((r) => r.externalId));
  const policies = new PoliciesRepository(trx, originatorId);
  const policy = await policies.forOperation(body.policy_id ?? null);
  refuseTooMany(receivables.length, policy);
  const productId = await requireProduct(trx, originatorId, body.product_id);

  const { row: assignor, created: assignorRegisteredNow } = await registerAssignor(new AssignorsRepository(trx, originatorId), assignorInput, body.bank);
  const payers = await new PayersRepository(trx, originatorId).ensureByDocument(receivables.map((r) => ({ document: r.payerDocument, name: r.payerName })));
  const pricingInput = {
    receivables, fees, policy,
    assignorDefaults: await policies.assignorFeeDefaults(assignor.document),
    payerDefaultsByDocument: await policies.payerFeeDefaults(receivables.map((r) => r.payerDocument)),
    businessDate: businessDate(now),
  };
  // Pricing caps the netted debt at Σ liquid, so the PIX amount is never negative.
  const priced = priceOperation({ ...pricingInput, otherDebtDiscounts: await openDebtOf(trx, originatorId, assignor.id) });
  enforceCetBounds(priced);
  return writeOperation(trx, {
    originatorId, channel: 'direct', environment, assignor, assignorRegisteredNow, policy, productId,
    embeddedSignature: body.embedded_signature ?? false, priced, payers,
    sources: body.receivables.map((raw) => ({ stockItemId: null, nfe: raw })),
  });
}
