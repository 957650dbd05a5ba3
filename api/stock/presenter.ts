import { Money } from '../../domain/money';
import { renderMoney } from '../../domain/vocabulary';
import type { StockItemRow } from '../../db/repositories/stock';
import type { Schema } from '../openapi/contract-types';

/**
 * A stock item as every stock route answers it, each value under both names. Without a stored
 * gross the gross is the NFV, as the receivable item defines it ("omitted means gross = NFV").
 */
export function presentStockItem(item: StockItemRow): Schema<'StockItem'> {
  const net = Money.of(item.netFutureValue);
  return {
    id: item.id,
    external_id: item.externalId,
    identifier: item.identifier,
    status: item.status,
    pre_authorized: item.preAuthorized,
    assignor_id: item.assignorId,
    payer_name: item.payerName,
    payer_document: item.payerDocument,
    due_date: item.dueDate,
    backing_type: item.backingType,
    nfe_number: item.nfeNumber,
    nfe_serie: item.nfeSerie,
    nfe_key: item.nfeKey,
    nfe_issue_date: item.nfeIssueDate,
    nfe_total_value: item.nfeTotalValue,
    ...renderMoney({
      gross_future_value: item.grossFutureValue === null ? net : Money.of(item.grossFutureValue),
      net_future_value: net,
    }),
    gross_future_value_deductions: item.grossFutureValueDeductions,
    operation_id: item.operationId,
    source_operation_id: item.sourceOperationId,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}
