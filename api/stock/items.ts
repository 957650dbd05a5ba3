import type { Knex } from 'knex';
import { storedDocument } from '../../domain/documents';
import { Conflict, NotFound, RuleViolation } from '../../domain/errors';
import { Money } from '../../domain/money';
import { InputErrors } from '../../domain/money-input';
import { checkReceivableNfe } from '../../domain/nfe-key';
import { receivableFingerprint } from '../../domain/receivable-identity';
import { normaliseValues } from '../../domain/vocabulary';
import { AssignorsRepository } from '../../db/repositories/assignors';
import { PoliciesRepository } from '../../db/repositories/policies';
import { StockItemRow, StockRepository, StockValueChange } from '../../db/repositories/stock';
import { guardReceivables } from '../operations/double-assignment';

export async function requireStockItem(stock: StockRepository, id: string, lock = false): Promise<StockItemRow> {
  const item = await stock.byId(id, lock);
  if (!item) throw new NotFound('stock_item_not_found');
  return item;
}

/** 422 `STOCK_ITEM_NFV_ABOVE_GROSS`, naming each offender under the deprecated names error bodies keep. */
export function nfvAboveGross(offenders: readonly { item: StockItemRow; net: Money; gross: Money }[]): RuleViolation {
  return new RuleViolation({
    code: 'STOCK_ITEM_NFV_ABOVE_GROSS',
    message: `The net future value is above the gross future value of ${offenders.length} stock item(s)`,
    items: offenders.map(({ item, net, gross }) => ({
      stock_item_id: item.id, external_id: item.externalId, net_face_value: net.toString(), gross_face_value: gross.toString(),
    })),
  });
}

const stored = (value: string | null) => (value === null ? null : Money.of(value));
/** The NF-e text fields by the body's name, with the item's field each one changes. */
const NFE_TEXT = { nfe_number: 'nfeNumber', nfe_serie: 'nfeSerie', nfe_key: 'nfeKey', nfe_issue_date: 'nfeIssueDate' } as const;
const NFE_NAMES = Object.keys(NFE_TEXT) as (keyof typeof NFE_TEXT)[];

/**
 * The NF-e fields a PATCH sends, checked on the values the item ends up with (a new key against
 * the stored number, a new number against the stored key), and the item's claim moved when they
 * change what identifies it: the new invoice is claimed (409 when the originator already holds
 * it); the trigger drops the old claim.
 */
async function nfeChange(trx: Knex, originatorId: string, item: StockItemRow, body: Record<string, unknown>): Promise<StockValueChange> {
  const change: StockValueChange = {};
  const errors = new InputErrors();
  if (body.nfe_total_value != null) change.nfeTotalValue = errors.money(body.nfe_total_value, ['body', 'nfe_total_value'])?.toString() ?? null;
  errors.throwIfAny();
  if (!NFE_NAMES.some((name) => typeof body[name] === 'string')) return change;
  const merged = Object.fromEntries(NFE_NAMES.map((name) => [name, typeof body[name] === 'string' ? body[name] as string : item[NFE_TEXT[name]]]));
  const assignor = (await new AssignorsRepository(trx, originatorId).byId(item.assignorId))!;
  const nfeKey = checkReceivableNfe(merged, { externalId: item.externalId, loc: ['body'] }, storedDocument(assignor.document));
  const fingerprint = receivableFingerprint({
    nfeKey, backingType: item.backingType, payerDocument: item.payerDocument, dueDate: item.dueDate, identifier: item.identifier,
    nfeNumber: merged.nfe_number as string | null, nfeSerie: merged.nfe_serie as string | null,
  });
  if (fingerprint !== item.receivableFingerprint) {
    await guardReceivables(trx, originatorId, [{ externalId: item.externalId, fingerprint }], (await new PoliciesRepository(trx, originatorId).active())?.doubleAssignment ?? 'review');
  }
  const nfeFields = Object.fromEntries(NFE_NAMES.map((name) => [NFE_TEXT[name], merged[name]])) as StockValueChange;
  return { ...change, ...nfeFields, nfeKey, receivableFingerprint: fingerprint };
}

/**
 * `PATCH /v1/stock/{item_id}`: `pre_authorized`, the value fields and the NF-e fields. The vocabulary rules apply
 * to what the body carries; NFV above gross is checked on the values the item would end up with
 * (route rule 4). Only an item still `IN_STOCK` can change, and it is locked while it does.
 */
export async function changeStockItem(trx: Knex, originatorId: string, id: string, body: Record<string, unknown>): Promise<StockItemRow> {
  const [values] = normaliseValues([{ raw: body, loc: ['body'] }], 'stock_patch');
  const stock = new StockRepository(trx, originatorId);
  const item = await requireStockItem(stock, id, true);
  if (item.status !== 'IN_STOCK') throw new Conflict('stock_item_not_in_stock');
  const gross = values.grossFutureValue ?? stored(item.grossFutureValue);
  const net = values.netFutureValue ?? Money.of(item.netFutureValue);
  if (gross && net.gt(gross)) throw nfvAboveGross([{ item, net, gross }]);

  const change: StockValueChange = {};
  if (values.grossFutureValue) change.grossFutureValue = values.grossFutureValue.toString();
  // Deductions describe a gross; with none, stored or sent, they are ignored as at registration.
  if (values.grossFutureValueDeductions && gross) change.grossFutureValueDeductions = values.grossFutureValueDeductions.toString();
  if (values.netFutureValue) change.netFutureValue = values.netFutureValue.toString();
  if (typeof body.pre_authorized === 'boolean') change.preAuthorized = body.pre_authorized;
  return stock.update(id, { ...change, ...(await nfeChange(trx, originatorId, item, body)) });
}

/** IN_STOCK → CANCELLED; an anticipated or already cancelled item cannot be. */
export async function cancelStockItem(trx: Knex, originatorId: string, id: string): Promise<StockItemRow> {
  const stock = new StockRepository(trx, originatorId);
  const item = await requireStockItem(stock, id, true);
  if (item.status !== 'IN_STOCK') throw new Conflict('stock_item_cannot_be_cancelled');
  return stock.update(id, { status: 'CANCELLED' });
}
