import type { Knex } from 'knex';
import { readAssignor, resolvePrimaryAccount, AssignorInput, BankInput } from '../../domain/assignor-registration';
import { storedDocument } from '../../domain/documents';
import { RuleViolation, ValidationFailed } from '../../domain/errors';
import { checkReceivableNfe } from '../../domain/nfe-key';
import { normaliseFees, normaliseReceivables, ReceivableInput } from '../../domain/pricing';
import { decideOperation, refuseTooMany } from '../../domain/operation-creation';
import { receivableFingerprint, refuseRepeatedReceivables } from '../../domain/receivable-identity';
import { AssignorsRepository, AssignorRow } from '../../db/repositories/assignors';
import { PayersRepository } from '../../db/repositories/payers';
import { PoliciesRepository } from '../../db/repositories/policies';
import { ProductsRepository } from '../../db/repositories/products';
import { writeOperation, WrittenOperation } from './write-operation';
import { loadCreation } from './load-creation';
import type { RequestTime } from '../test-clocks/request-time';
import type { RequestBody } from '../openapi/contract-types';
import { guardReceivables, Guarded, recordFlagged } from './double-assignment';
import { CreationSefaz, refuseUnbackedNfes } from './nfe-at-sefaz';

type DirectBody = RequestBody<'createDirectOperation'>;

function refuseDuplicateExternalIds(externalIds: readonly string[]): void {
  const seen = new Set<string>();
  const errors = externalIds.flatMap((id, i) => {
    if (!seen.has(id)) { seen.add(id); return []; }
    return [{ loc: ['body', 'receivables', i, 'external_id'], msg: `external_id "${id}" appears more than once in this operation`, type: 'value_error', input: id }];
  });
  if (errors.length > 0) throw new ValidationFailed(errors);
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
  return { row: row.disbursementMethod ? row : await assignors.setPrimaryAccountIfMissing(row.id, account), created };
}

/**
 * The NF-e key of each receivable checked against the assignor (`null`: unknown, as in a
 * simulation without one), and what identifies each as an invoice; the same one twice in a
 * request is refused. Shared by `POST /v1/simulate` and direct creation.
 */
export function identifyReceivables(raw: readonly Record<string, unknown>[], receivables: readonly ReceivableInput[], assignorDocument: string | null): (Guarded & { nfeKey: string | null })[] {
  const assignor = assignorDocument === null ? null : storedDocument(assignorDocument);
  const guarded = receivables.map((r, i) => {
    const nfeKey = checkReceivableNfe(raw[i], { externalId: r.externalId, loc: ['body', 'receivables', i] }, assignor);
    const fingerprint = receivableFingerprint({
      nfeKey, backingType: r.backingType, payerDocument: r.payerDocument, dueDate: r.dueDate, identifier: r.identifier,
      nfeNumber: typeof raw[i].nfe_number === 'string' ? raw[i].nfe_number as string : null, nfeSerie: typeof raw[i].nfe_serie === 'string' ? raw[i].nfe_serie as string : null,
    });
    return { externalId: r.externalId, fingerprint, nfeKey };
  });
  refuseRepeatedReceivables(guarded.map((g) => g.fingerprint), (i) => ['body', 'receivables', i, guarded[i].nfeKey ? 'nfe_key' : 'due_date']);
  return guarded;
}

/**
 * `POST /v1/operations/direct`: every check of the body alone first; then load → decide → write,
 * all in the caller's transaction. The claims, the assignor and its payers are written before the
 * decision: the claims are the first lock (docs/decisions.md, "Double assignment"), and the debt
 * the decision nets is read under the registered assignor's id. A refusal rolls all of it back.
 */
export async function createDirectOperation(trx: Knex, originatorId: string, environment: string, body: DirectBody, at: RequestTime, sefaz: CreationSefaz): Promise<WrittenOperation> {
  const receivables = normaliseReceivables(body.receivables, { route: 'direct' });
  const fees = normaliseFees(body.fees, { route: 'direct' }, receivables);
  // Every refusal of the body comes before the first write (the assignor is registered below).
  const assignorInput = readAssignor(body);
  refuseDuplicateExternalIds(receivables.map((r) => r.externalId));
  const guarded = identifyReceivables(body.receivables, receivables, assignorInput.document);
  const policy = await new PoliciesRepository(trx, originatorId).forOperation(body.policy_id ?? null);
  refuseTooMany(receivables.length, policy);
  const productId = await requireProduct(trx, originatorId, body.product_id);
  const nfes = guarded.flatMap((g, i) => (g.nfeKey ? [{ externalId: g.externalId, loc: ['body', 'receivables', i], key: g.nfeKey }] : []));
  await refuseUnbackedNfes(sefaz, nfes, assignorInput.document);
  // The claims are the first write and the first lock (docs/decisions.md, "Double assignment").
  const review = await guardReceivables(trx, originatorId, guarded, policy.doubleAssignment);

  const { row: assignor, created: assignorRegisteredNow } = await registerAssignor(new AssignorsRepository(trx, originatorId), assignorInput, body.bank);
  const payers = await new PayersRepository(trx, originatorId).ensureByDocument(receivables.map((r) => ({ document: r.payerDocument, name: r.payerName })));
  const decision = decideOperation(await loadCreation(trx, originatorId, { receivables, fees, policy, now: at.now, assignor, review }));
  if (decision.refusal) throw decision.refusal;
  const written = await writeOperation(trx, {
    originatorId, channel: 'direct', environment, assignor, assignorRegisteredNow, productId,
    embeddedSignature: body.embedded_signature ?? false, plan: decision.plan, payers, clock: at.clock,
    sources: body.receivables.map((raw, i) => ({ stockItemId: null, nfe: { ...raw, nfe_key: guarded[i].nfeKey }, fingerprint: guarded[i].fingerprint })),
  });
  if (review) await recordFlagged(trx, written.operation, review);
  return written;
}
