import type { Knex } from 'knex';
import { RuleViolation } from '../../../domain/errors';
import { decideCreditLimits, decideOperation, OperationPlan, Party, refuseTooMany, requestedOfPayers } from '../../../domain/operation-creation';
import { AssignorsRepository } from '../../../db/repositories/assignors';
import { ExposureRepository } from '../../../db/repositories/exposure';
import { PayersRepository, PayerRow } from '../../../db/repositories/payers';
import { PoliciesRepository } from '../../../db/repositories/policies';
import { Product, ProductsRepository } from '../../../db/repositories/products';
import type { RequestTime } from '../../test-clocks/request-time';
import { assignedElsewhere, guardReceivables, recordFlagged } from '../double-assignment';
import { settleNettedDebt } from '../debt-netting';
import { issuerDocument, issuerParty, takeAssignor } from './assignor';
import { loadCreation } from './load';
import type { CreationLookups } from './lookups';
import { refuseUnbackedNfes } from './nfe-at-sefaz';
import { CreationNfeXml, refuseUnprovenNfes, storeNfeXmls } from './nfe-xml';
import { refuseEncumbered } from './registrar-lookup';
import type { CreationRequest } from './request';
import { writeOperation, writeTitles, WrittenOperation } from './write';

async function requireProduct(trx: Knex, originatorId: string, productId: string | null): Promise<Product | null> {
  if (!productId) return null;
  const product = await new ProductsRepository(trx, originatorId).byId(productId);
  if (!product) throw new RuleViolation({ code: 'product_not_found', message: `No product ${productId} for this originator`, product_id: productId });
  return product;
}

/** Under the exposure counters' row locks, held to the commit: the credit limits (DESIGN.md §7), decided on what the locks read. */
async function refuseOverLimits(trx: Knex, originatorId: string, plan: OperationPlan, assignor: Party, payers: ReadonlyMap<string, PayerRow>): Promise<void> {
  const payerRows = [...requestedOfPayers(plan).keys()].map((document) => payers.get(document)!);
  const exposure = await new ExposureRepository(trx, originatorId).lockForOperation(assignor.id, payerRows.map((p) => p.id));
  const limits = decideCreditLimits(plan, { assignor, payers: payerRows }, exposure);
  if (limits.refusal) throw limits.refusal;
}

/**
 * An operation's creation, the same for every route, in the caller's transaction (a refusal at any
 * step rolls back everything before it): gates → claims → load → decide → write → limits → netting.
 *
 * The lock order, which every creation takes so two of them cannot deadlock on one assignor:
 * 1. the receivables' claims (direct: claimed here; stock: the adapter's selection locked the items that hold them);
 * 2. the assignor's row (registered, or locked `FOR UPDATE`), then its payers (new ones inserted in document order);
 * 3. the assignor's open payables (the debt priced is the debt netted);
 * 4. the operation's rows, then the exposure counters (originator, assignor, payers), held to the commit: every read and every write
 *    that does not move exposure comes before them, so an originator's operations queue there only
 *    for the limits, the titles (whose trigger moves the counters), the netting and the commit.
 */
export async function createOperation(trx: Knex, originatorId: string, environment: string, request: CreationRequest, at: RequestTime, lookups: CreationLookups, nfeXml: CreationNfeXml): Promise<WrittenOperation> {
  // Gates: every refusal that needs no lock. SEFAZ and the escriturador are asked, each within its budget, before anything is written.
  const policy = await new PoliciesRepository(trx, originatorId).forOperation(request.policyId);
  refuseTooMany(request.receivables.length, policy);
  const product = await requireProduct(trx, originatorId, request.productId);
  const productId = product?.id ?? null;
  const assignors = new AssignorsRepository(trx, originatorId);
  const issuer = await issuerDocument(assignors, request.assignor);
  // The XMLs before SEFAZ: proving them costs no request to anyone.
  refuseUnprovenNfes(nfeXml, request.receivables, product?.nfeXml ?? 'optional', issuer);
  if (request.nfes.length > 0) {
    await refuseUnbackedNfes(lookups.sefaz, request.nfes, await issuerParty(trx, nfeXml.ring, assignors, request.assignor, issuer));
    const dueDates = new Map(request.receivables.map((r) => [r.input.externalId, r.input.dueDate]));
    await refuseEncumbered(trx, lookups.registrar, originatorId, request.nfes.map((nfe) => ({ ...nfe, dueDate: dueDates.get(nfe.externalId)! })), issuer);
  }

  // Claims (docs/decisions.md, "Double assignment"): a stock item anticipated is the same receivable, not a second assignment.
  const guarded = request.receivables.map((r) => ({ externalId: r.input.externalId, fingerprint: r.fingerprint }));
  const review = request.claims === 'new'
    ? await guardReceivables(trx, originatorId, guarded, policy.doubleAssignment)
    : await assignedElsewhere(trx, originatorId, guarded, policy.doubleAssignment);

  // Load: the assignor before its payables (loadCreation locks them), so the debt the decision nets is read under its id.
  const { row: assignor, created } = await takeAssignor(assignors, request.assignor);
  const receivables = request.receivables.map((r) => r.input);
  const payers = await new PayersRepository(trx, originatorId).ensureByDocument(receivables.map((r) => ({ document: r.payerDocument, name: r.payerName })));
  const decision = decideOperation(await loadCreation(trx, originatorId, { receivables, fees: request.fees, policy, now: at.now, assignor, review }));
  if (decision.refusal) throw decision.refusal;
  const { plan } = decision;

  const pending = await writeOperation(trx, {
    originatorId, channel: request.channel, environment, assignor, productId, embeddedSignature: request.embeddedSignature, plan, payers, clock: at.clock,
    sources: request.receivables,
  });
  // Locked from here to the commit.
  await refuseOverLimits(trx, originatorId, plan, { ...assignor, registeredNow: created }, payers);
  const titles = await writeTitles(trx, pending.titles, payers, plan.policy.graceDays);
  await storeNfeXmls(trx, nfeXml, request.receivables, pending.titles);
  await settleNettedDebt(trx, { originatorId, assignorId: assignor.id, operationId: pending.id, amount: plan.priced.otherDebtDiscounts, at: at.clock?.frozenTime });
  if (review) await recordFlagged(trx, pending.operation, review);
  return { ...pending, titles };
}
