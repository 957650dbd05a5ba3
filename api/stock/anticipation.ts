import type { Knex } from 'knex';
import type { RequestTime } from '../test-clocks/request-time';
import { AssignorInput, BankInput, resolvePrimaryAccount } from '../../domain/assignor-registration';
import { RuleViolation } from '../../domain/errors';
import { Money } from '../../domain/money';
import { decideOperation, refuseTooMany } from '../../domain/operation-creation';
import { Policy, priceOperation, PricedOperation, ReceivableInput, renderPricedOperation, renderPricedReceivable } from '../../domain/pricing';
import { AssignorRow, AssignorsRepository } from '../../db/repositories/assignors';
import { PayersRepository } from '../../db/repositories/payers';
import { PoliciesRepository } from '../../db/repositories/policies';
import type { StockItemRow } from '../../db/repositories/stock';
import { openDebtOf } from '../operations/debt-netting';
import { requireProduct } from '../operations/create-direct';
import { loadCreation, loadPricing } from '../operations/load-creation';
import { assignedElsewhere, recordFlagged } from '../operations/double-assignment';
import { writeOperation, WrittenOperation } from '../operations/write-operation';
import { SIMULATION_ID } from '../simulation/routes';
import { AnticipationBody, selectStockItems, Selection } from './selection';
import { CreationSefaz, refuseUnbackedNfes } from '../operations/nfe-at-sefaz';

export interface RequestAnticipationBody extends AnticipationBody {
  bank: BankInput;
  embedded_signature?: boolean;
  product_id?: string | null;
}

const NO_OWN_FEES = { monthlyRatePct: null, discountPct: null, fixedDiscountBrl: null, liquidValueBrl: null };

/** A stock item priced as a receivable anticipated in full: requested = NFV (route rule 3). */
function toReceivable(item: StockItemRow): ReceivableInput {
  const net = Money.of(item.netFutureValue);
  return {
    externalId: item.externalId, identifier: item.identifier, payerName: item.payerName, payerDocument: item.payerDocument,
    dueDate: item.dueDate, backingType: item.backingType,
    grossFutureValue: item.grossFutureValue === null ? net : Money.of(item.grossFutureValue),
    grossFutureValueDeductions: item.grossFutureValueDeductions === null ? null : Money.of(item.grossFutureValueDeductions),
    netFutureValue: net, requestedNetFutureValue: net, requestedPercent: null, fees: NO_OWN_FEES,
  };
}

/** The pricing engine names receivables; the stock routes name the items (external ids are unique in a selection). */
function asStockRefusal(err: unknown, items: readonly StockItemRow[]): unknown {
  if (!(err instanceof RuleViolation) || typeof err.detail === 'string' || err.detail.code !== 'RECEIVABLE_DISCOUNT_EXCEEDS_BASE') return err;
  const offenders = err.detail.receivables as { external_id: string; discounted_value: string }[];
  return new RuleViolation({
    code: 'STOCK_ITEM_DISCOUNT_EXCEEDS_BASE',
    message: `The computed discount is at or above the net face value of ${offenders.length} stock item(s)`,
    items: offenders.map((offender) => {
      const item = items.find((candidate) => candidate.externalId === offender.external_id)!;
      return { stock_item_id: item.id, external_id: item.externalId, net_face_value: Money.of(item.netFutureValue).toString(), discount_brl: offender.discounted_value };
    }),
  });
}

async function price(trx: Knex, originatorId: string, selection: Selection, context: { assignor: AssignorRow; policy: Policy; now: Date; otherDebt: Money }): Promise<PricedOperation> {
  const input = await loadPricing(trx, originatorId, {
    receivables: selection.items.map(toReceivable), fees: selection.fees, policy: context.policy, assignorDocument: context.assignor.document,
    now: context.now, otherDebt: context.otherDebt,
  });
  try {
    return priceOperation(input);
  } catch (err) {
    throw asStockRefusal(err, selection.items);
  }
}

/** Every selected item has the same assignor (checked), and items reference registered ones. */
async function assignorOf(assignors: AssignorsRepository, selection: Selection, lock = false): Promise<AssignorRow> {
  return (await assignors.byId(selection.items[0].assignorId, lock))!;
}

/** `POST /v1/stock/simulate-anticipation`: the same gates and pricing as the request, and nothing written. */
export async function simulateAnticipation(trx: Knex, originatorId: string, body: AnticipationBody, now: Date) {
  const selection = await selectStockItems(trx, originatorId, body, 'simulate_anticipation');
  const policy = await new PoliciesRepository(trx, originatorId).forOperation(body.policy_id ?? null);
  const assignor = await assignorOf(new AssignorsRepository(trx, originatorId), selection);
  // The debt the request would net, read without locking it: the simulation settles nothing.
  const priced = await price(trx, originatorId, selection, { assignor, policy, now, otherDebt: await openDebtOf(trx, originatorId, assignor.id, false) });
  return {
    id: SIMULATION_ID, status: 'SIMULATED', business_date: priced.businessDate, policy_id: policy.id, assignor_id: assignor.id,
    ...renderPricedOperation(priced),
    receivables: priced.receivables.map((p, i) => ({ stock_item_id: selection.items[i].id, ...renderPricedReceivable(p) })),
    warnings: priced.cetFindings,
  };
}

/** Contract bank rule 5: the assignor exists; `bank` only gives it its first account. */
async function withPrimaryAccount(assignors: AssignorsRepository, assignor: AssignorRow, bank: BankInput): Promise<AssignorRow> {
  if (assignor.disbursementMethod) return assignor;
  const input: AssignorInput = {
    type: assignor.type, document: assignor.document, cpf: assignor.cpf, cnpj: assignor.cnpj, name: assignor.name,
    tradeName: assignor.tradeName, email: assignor.email, phone: assignor.phone, address: assignor.address,
  };
  return assignors.setPrimaryAccountIfMissing(assignor.id, resolvePrimaryAccount(bank, input));
}

/**
 * `POST /v1/stock/request-anticipation`: 100% of the selected items of one assignor become one
 * operation, through the load → decide → write of direct creation (domain/operation-creation.ts,
 * write-operation.ts). Only the assignor's first account is written before the decision.
 */
export async function requestAnticipation(trx: Knex, originatorId: string, environment: string, body: RequestAnticipationBody, at: RequestTime, sefaz: CreationSefaz): Promise<WrittenOperation> {
  const selection = await selectStockItems(trx, originatorId, body, 'request_anticipation');
  const policy = await new PoliciesRepository(trx, originatorId).forOperation(body.policy_id ?? null);
  refuseTooMany(selection.items.length, policy);
  const productId = await requireProduct(trx, originatorId, body.product_id);
  const assignors = new AssignorsRepository(trx, originatorId);
  const nfes = selection.items.flatMap((item, i) => (item.nfeKey ? [{ externalId: item.externalId, loc: ['body', 'stock_item_ids', i], key: item.nfeKey }] : []));
  // Asked with the items locked (selected for update) but not yet the assignor: SEFAZ's wait is bounded by the creation's budget.
  if (nfes.length > 0) await refuseUnbackedNfes(sefaz, nfes, (await assignorOf(assignors, selection)).document);
  // The items already hold their claims: anticipating one is the same receivable, not a second assignment.
  const guarded = selection.items.map((item) => ({ externalId: item.externalId, fingerprint: item.receivableFingerprint }));
  const review = await assignedElsewhere(trx, originatorId, guarded, policy.doubleAssignment);
  // The assignor row is locked before its payables (openDebtOf), the order direct creation takes
  // them in, so the two routes cannot deadlock on one assignor; a refusal below rolls this back.
  const assignor = await withPrimaryAccount(assignors, await assignorOf(assignors, selection, true), body.bank);
  // The items' payers were registered with them: read, none inserted, none locked (the exposure counters guard their limits).
  const payers = await new PayersRepository(trx, originatorId).ensureByDocument(selection.items.map((item) => ({ document: item.payerDocument, name: item.payerName })));
  const decision = decideOperation(await loadCreation(trx, originatorId, {
    receivables: selection.items.map(toReceivable), fees: selection.fees, policy, now: at.now, assignor, review,
  }));
  if (decision.refusal) throw asStockRefusal(decision.refusal, selection.items);
  const written = await writeOperation(trx, {
    originatorId, channel: 'stock', environment, assignor, assignorRegisteredNow: false, productId,
    embeddedSignature: body.embedded_signature ?? false, plan: decision.plan, payers, clock: at.clock,
    sources: selection.items.map((item) => ({ stockItemId: item.id, nfe: {}, fingerprint: item.receivableFingerprint })),
  });
  if (review) await recordFlagged(trx, written.operation, review);
  return written;
}
