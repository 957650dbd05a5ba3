import type { Knex } from 'knex';
import type { RequestTime } from '../test-clocks/request-time';
import type { BankInput } from '../../domain/assignor-registration';
import { RuleViolation, ValidationFailed } from '../../domain/errors';
import { Money } from '../../domain/money';
import { Policy, priceOperation, PricedOperation, ReceivableInput, renderPricedOperation, renderPricedReceivable } from '../../domain/pricing';
import { AssignorRow, AssignorsRepository } from '../../db/repositories/assignors';
import { PoliciesRepository } from '../../db/repositories/policies';
import type { StockItemRow } from '../../db/repositories/stock';
import { openDebtOf } from '../operations/debt-netting';
import { loadPricing } from '../operations/creation/load';
import type { CreationLookups } from '../operations/creation/lookups';
import { CreationNfeXml, decodeNfeXml } from '../operations/creation/nfe-xml';
import type { CreationReceivable } from '../operations/creation/request';
import { createOperation } from '../operations/creation/script';
import type { WrittenOperation } from '../operations/creation/write';
import { SIMULATION_ID } from '../simulation/routes';
import { AnticipationBody, selectStockItems, Selection } from './selection';

export interface RequestAnticipationBody extends AnticipationBody {
  bank: BankInput;
  embedded_signature?: boolean;
  product_id?: string | null;
  nfe_xmls?: { stock_item_id: string; nfe_xml: string }[];
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
async function assignorOf(assignors: AssignorsRepository, selection: Selection): Promise<AssignorRow> {
  return (await assignors.byId(selection.items[0].assignorId))!;
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

/** Each `nfe_xmls` entry by its stock item, where it sits in the body; an item not selected, or given twice, is refused. */
function xmlsByItem(sent: RequestAnticipationBody['nfe_xmls'], items: readonly StockItemRow[]): Map<string, { xml: string; at: number }> {
  const selected = new Set(items.map((item) => item.id));
  const byItem = new Map<string, { xml: string; at: number }>();
  (sent ?? []).forEach(({ stock_item_id: id, nfe_xml: xml }, at) => {
    const loc = ['body', 'nfe_xmls', at, 'stock_item_id'];
    if (!selected.has(id)) throw ValidationFailed.field(loc, `stock item ${id} is not among stock_item_ids`, 'value_error', id);
    if (byItem.has(id)) throw ValidationFailed.field(loc, `stock item ${id} has its NF-e XML given twice`, 'value_error', id);
    byItem.set(id, { xml, at });
  });
  return byItem;
}

/** A stock item as a receivable of the creation: it holds its claim, and the operation consumes it. */
function toCreationReceivable(item: StockItemRow, index: number, xmls: ReadonlyMap<string, { xml: string; at: number }>): CreationReceivable {
  const sent = xmls.get(item.id);
  return {
    input: toReceivable(item), stockItemId: item.id, fingerprint: item.receivableFingerprint,
    nfe: { number: item.nfeNumber, serie: item.nfeSerie, key: item.nfeKey, issueDate: item.nfeIssueDate, totalValue: item.nfeTotalValue },
    nfeXml: decodeNfeXml(sent?.xml), nfeXmlLoc: sent ? ['body', 'nfe_xmls', sent.at, 'nfe_xml'] : ['body', 'stock_item_ids', index],
  };
}

/**
 * `POST /v1/stock/request-anticipation`: 100% of the selected items of one assignor become one
 * operation through the creation script (api/operations/creation/script.ts). The selection locks
 * the items, which hold the receivables' claims: the script's first lock, taken first here too.
 */
export async function requestAnticipation(trx: Knex, originatorId: string, environment: string, body: RequestAnticipationBody, at: RequestTime, lookups: CreationLookups, nfeXml: CreationNfeXml): Promise<WrittenOperation> {
  const selection = await selectStockItems(trx, originatorId, body, 'request_anticipation');
  const { items } = selection;
  const xmls = xmlsByItem(body.nfe_xmls, items);
  try {
    return await createOperation(trx, originatorId, environment, {
      channel: 'stock', receivables: items.map((item, i) => toCreationReceivable(item, i, xmls)), fees: selection.fees, policyId: body.policy_id ?? null,
      productId: body.product_id ?? null, embeddedSignature: body.embedded_signature ?? false,
      // Every selected item has the same assignor (checked), and items reference registered ones.
      assignor: { registeredId: items[0].assignorId, bank: body.bank }, claims: 'held',
      nfes: items.flatMap((item, i) => (item.nfeKey ? [{ externalId: item.externalId, loc: ['body', 'stock_item_ids', i], key: item.nfeKey }] : [])),
    }, at, lookups, nfeXml);
  } catch (err) {
    // Only pricing refuses with the code renamed here; every other refusal passes unchanged.
    throw asStockRefusal(err, items);
  }
}
