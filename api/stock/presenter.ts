import { Money } from '../../domain/money';
import { renderMoney } from '../../domain/vocabulary';
import type { StockItemRow } from '../../db/repositories/stock';

/**
 * A stock item as every stock route answers it, each value under both names. Without a stored
 * gross the gross is the NFV, as the receivable item defines it ("omitted means gross = NFV").
 */
export function presentStockItem(item: StockItemRow) {
  const net = Money.of(item.net_future_value);
  return {
    id: item.id,
    external_id: item.external_id,
    identifier: item.identifier,
    status: item.status,
    pre_authorized: item.pre_authorized,
    assignor_id: item.assignor_id,
    payer_name: item.payer_name,
    payer_document: item.payer_document,
    due_date: item.due_date,
    backing_type: item.backing_type,
    nfe_number: item.nfe_number,
    nfe_serie: item.nfe_serie,
    nfe_key: item.nfe_key,
    nfe_issue_date: item.nfe_issue_date,
    nfe_total_value: item.nfe_total_value,
    ...renderMoney({
      gross_future_value: item.gross_future_value === null ? net : Money.of(item.gross_future_value),
      net_future_value: net,
    }),
    gross_future_value_deductions: item.gross_future_value_deductions,
    operation_id: item.operation_id,
    source_operation_id: item.source_operation_id,
    created_at: item.created_at.toISOString(),
    updated_at: item.updated_at.toISOString(),
  };
}
