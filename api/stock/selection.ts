import type { Knex } from 'knex';
import { Conflict, RuleViolation } from '../../domain/errors';
import { Money } from '../../domain/money';
import { InputErrors } from '../../domain/money-input';
import { OperationFees, readOperationFees } from '../../domain/pricing';
import { normaliseValues } from '../../domain/vocabulary';
import { StockItemRow, StockRepository } from '../../db/repositories/stock';
import { nfvAboveGross } from './items';

export type AnticipationRoute = 'simulate_anticipation' | 'request_anticipation';

export interface AnticipationBody {
  stock_item_ids: string[];
  fees?: unknown;
  policy_id?: string | null;
  [field: string]: unknown;
}

/** The items to anticipate, in the order the client listed them, and what it asked for them. */
export interface Selection {
  items: StockItemRow[];
  requested: Money;
  fees: OperationFees | null;
}

const nfv = (item: StockItemRow) => Money.of(item.netFutureValue);

/** The item gates, each refusing at its first offender in payload order. */
function refuseUnavailable(items: readonly StockItemRow[]): void {
  const unavailable = items.find((item) => item.status !== 'IN_STOCK');
  if (unavailable) throw new Conflict(`stock_item_${unavailable.id}_not_available`);
  const unauthorised = items.find((item) => !item.preAuthorized);
  if (unauthorised) throw new Conflict(`stock_item_${unauthorised.id}_not_pre_authorized`);
  const assignorIds = [...new Set(items.map((item) => item.assignorId))];
  if (assignorIds.length > 1) {
    throw new RuleViolation({ code: 'stock_items_of_several_assignors', message: 'One operation anticipates the items of one assignor', assignor_ids: assignorIds });
  }
  // Titles are unique by external_id within their operation.
  const externalIds = items.map((item) => item.externalId);
  const repeated = externalIds.find((id, i) => externalIds.indexOf(id) < i);
  if (repeated !== undefined) {
    throw new RuleViolation({
      code: 'stock_items_share_external_id', message: `Several selected items carry external_id ${repeated}; one operation holds each external_id once`,
      external_id: repeated, stock_item_ids: items.filter((item) => item.externalId === repeated).map((item) => item.id),
    });
  }
}

/** Values stored before today's checks existed: NFV must be positive and not above gross; route rule 3 then. */
function refuseValues(items: readonly StockItemRow[], requested: Money): void {
  const notPositive = items.filter((item) => !nfv(item).gt(Money.ZERO));
  if (notPositive.length > 0) {
    throw new RuleViolation({
      code: 'STOCK_ITEM_NFV_NOT_POSITIVE', message: `The net future value of ${notPositive.length} stock item(s) is not positive`,
      items: notPositive.map((item) => ({ stock_item_id: item.id, external_id: item.externalId, net_face_value: nfv(item).toString() })),
    });
  }
  const above = items.flatMap((item) => {
    const gross = item.grossFutureValue === null ? null : Money.of(item.grossFutureValue);
    return gross && nfv(item).gt(gross) ? [{ item, net: nfv(item), gross }] : [];
  });
  if (above.length > 0) throw nfvAboveGross(above);
  const total = Money.sum(items.map(nfv));
  if (!total.equals(requested)) {
    throw new RuleViolation({
      code: 'STOCK_REQUESTED_VALUE_MISMATCH',
      message: `requested_advance_value (${requested}) must equal the sum of the items' net_face_value (${total}): the stock path anticipates 100% of each item`,
      requested_advance_value: requested.toString(), total_net_face_value: total.toString(), stock_item_count: items.length,
    });
  }
}

/**
 * Reads an anticipation body and its items, then applies the stock codes in the contract's order.
 * `request-anticipation` locks the items until commit, so two requests cannot anticipate one item
 * twice: the second waits and then finds it ANTICIPATED.
 */
export async function selectStockItems(trx: Knex, originatorId: string, body: AnticipationBody, route: AnticipationRoute): Promise<Selection> {
  const errors = new InputErrors();
  const fees = readOperationFees(body.fees, route === 'request_anticipation' ? 'direct' : 'simulate', errors);
  const [{ requestedNetFutureValue }] = normaliseValues([{ raw: body, loc: ['body'] }], route, errors);
  const found = await new StockRepository(trx, originatorId).byIds(body.stock_item_ids, route === 'request_anticipation');
  if (found.length < body.stock_item_ids.length) throw new RuleViolation('some_stock_items_not_found');
  const byId = new Map(found.map((item) => [item.id, item]));
  const items = body.stock_item_ids.map((id) => byId.get(id)!);
  refuseUnavailable(items);
  refuseValues(items, requestedNetFutureValue!);
  return { items, requested: requestedNetFutureValue!, fees };
}
