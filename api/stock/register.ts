import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { readAssignor } from '../../domain/assignor-registration';
import { parseDocument, readDocument, storedDocument } from '../../domain/documents';
import { RuleViolation, ValidationFailed } from '../../domain/errors';
import { eventId } from '../../domain/events';
import { InputErrors } from '../../domain/money-input';
import { checkReceivableNfe } from '../../domain/nfe-key';
import { receivableFingerprint, refuseRepeatedReceivables } from '../../domain/receivable-identity';
import { normaliseValues } from '../../domain/vocabulary';
import { AssignorRow, AssignorsRepository } from '../../db/repositories/assignors';
import { recordEvent } from '../../db/repositories/events';
import { PayersRepository } from '../../db/repositories/payers';
import { PoliciesRepository } from '../../db/repositories/policies';
import { StockItemColumns, StockRepository } from '../../db/repositories/stock';
import { guardReceivables, Guarded } from '../operations/double-assignment';
import { presentStockItem } from './presenter';
import type { RequestBody, ResponseBody, Schema } from '../openapi/contract-types';

type Raw = Record<string, unknown>;

type StockBody = RequestBody<'registerStockItems'>;
/** The body's `assignor_document`, or the assignor fields to register or reuse the assignor by. */
type AssignorReference = string | Schema<'AssignorFields'>;

const text = (value: unknown) => (typeof value === 'string' ? value : null);
const IDENTIFYING = ['name', 'type', 'email'] as const;

/**
 * The assignor of the items: an existing one named by `assignor_document` (422 `assignor_not_found`
 * when the originator has none), or one registered or reused by document from the assignor fields,
 * as direct creation does (without an account: `bank` belongs to request-anticipation).
 */
async function resolveAssignor(trx: Knex, originatorId: string, reference: AssignorReference): Promise<AssignorRow> {
  const assignors = new AssignorsRepository(trx, originatorId);
  if (typeof reference === 'string') {
    const { value } = parseDocument(reference, ['body', 'assignor_document']);
    const row = await assignors.byDocument(value);
    if (!row) throw new RuleViolation({ code: 'assignor_not_found', message: `No assignor with document ${value}; register it first or send the assignor fields`, assignor_document: value });
    return row;
  }
  return (await assignors.register(readAssignor(reference), null)).row;
}

/** The assignor's document as the body gives it, before anything is registered (the NF-e issuer is checked against it). */
function assignorDocumentOf(reference: AssignorReference): string {
  return typeof reference === 'string' ? parseDocument(reference, ['body', 'assignor_document']).value : readAssignor(reference).document;
}

/** Each item's NF-e key checked against the assignor, and what identifies it as an invoice; the same invoice twice is refused. */
function identifyItems(items: Raw[], documents: readonly string[], assignorDocument: string): (Guarded & { nfeKey: string | null })[] {
  const guarded = items.map((raw, i) => {
    const externalId = String(raw.external_id);
    const nfeKey = checkReceivableNfe(raw, { externalId, loc: ['body', 'items', i] }, storedDocument(assignorDocument));
    const fingerprint = receivableFingerprint({
      nfeKey, backingType: text(raw.backing_type) ?? 'NFE', payerDocument: documents[i], dueDate: String(raw.due_date),
      identifier: text(raw.identifier), nfeNumber: text(raw.nfe_number), nfeSerie: text(raw.nfe_serie),
    });
    return { externalId, fingerprint, nfeKey };
  });
  refuseRepeatedReceivables(guarded.map((g) => g.fingerprint), (i) => ['body', 'items', i, guarded[i].nfeKey ? 'nfe_key' : 'due_date']);
  return guarded;
}

function requireAssignorReference(body: StockBody): AssignorReference {
  if (body.assignor_document) return body.assignor_document;
  const { name, type, email } = body;
  if (name != null && type != null && email != null) return { ...body, name, type, email };
  const missing = IDENTIFYING.filter((field) => body[field] === undefined || body[field] === null);
  if (missing.length === IDENTIFYING.length) {
    throw ValidationFailed.field(['body', 'assignor_document'], 'Field required: send assignor_document, or name, type, cpf/cnpj and email', 'missing');
  }
  throw new ValidationFailed(missing.map((field) => ({ loc: ['body', field], msg: 'Field required without assignor_document', type: 'missing' })));
}

/** Payer documents and NF-e totals of the items; `external_id` is unique within one registration. */
function readItems(items: Raw[], errors: InputErrors): { documents: string[]; nfeTotals: (string | null)[] } {
  const externalIds = items.map((item) => String(item.external_id));
  const documents = items.map((item, i) => {
    const loc = ['body', 'items', i];
    const first = externalIds.indexOf(externalIds[i]);
    if (first < i) errors.add([...loc, 'external_id'], `external_id must be unique within one registration; items[${first}] already uses it`, 'value_error', externalIds[i]);
    const document = readDocument(String(item.payer_document));
    if (!('reason' in document)) return document.value;
    errors.add([...loc, 'payer_document'], document.reason, 'value_error', item.payer_document);
    return '';
  });
  const nfeTotals = items.map((item, i) => {
    if (item.nfe_total_value === undefined || item.nfe_total_value === null) return null;
    return errors.money(item.nfe_total_value, ['body', 'items', i, 'nfe_total_value'])?.toString() ?? null;
  });
  return { documents, nfeTotals };
}

/**
 * `POST /v1/stock`: every item is checked (documents, vocabulary, NFV above gross as a schema
 * failure) before anything is written; then the items and one `stock.item_registered` event each
 * are written in the caller's transaction.
 */
export async function registerStock(trx: Knex, originatorId: string, body: StockBody, now: Date): Promise<ResponseBody<'registerStockItems', 201>> {
  const reference = requireAssignorReference(body);
  const errors = new InputErrors();
  const { documents, nfeTotals } = readItems(body.items, errors);
  const values = normaliseValues(body.items.map((raw, i) => ({ raw, loc: ['body', 'items', i], label: String(raw.external_id) })), 'stock', errors);
  const guarded = identifyItems(body.items, documents, assignorDocumentOf(reference));
  // The claims are the first write and the first lock; registering is not yet an operation, so
  // another originator's key is only refused here (policy `refuse`), never sent to review.
  await guardReceivables(trx, originatorId, guarded, (await new PoliciesRepository(trx, originatorId).active())?.doubleAssignment ?? 'review');
  const assignor = await resolveAssignor(trx, originatorId, reference);
  const payers = await new PayersRepository(trx, originatorId).ensureByDocument(body.items.map((raw, i) => ({ document: documents[i], name: String(raw.payer_name) })));

  const rows: StockItemColumns[] = body.items.map((raw, i) => ({
    id: uuidv7(), assignorId: assignor.id, payerId: payers.get(documents[i])!.id,
    externalId: String(raw.external_id), identifier: text(raw.identifier), backingType: text(raw.backing_type) ?? 'NFE',
    nfeNumber: text(raw.nfe_number), nfeSerie: text(raw.nfe_serie), nfeKey: guarded[i].nfeKey, nfeIssueDate: text(raw.nfe_issue_date),
    nfeTotalValue: nfeTotals[i],
    grossFutureValue: values[i].grossFutureValue?.toString() ?? null,
    // The contract: deductions are "ignored without the gross".
    grossFutureValueDeductions: values[i].grossFutureValue ? values[i].grossFutureValueDeductions?.toString() ?? null : null,
    netFutureValue: values[i].netFutureValue!.toString(),
    dueDate: String(raw.due_date),
    // Registering an item is the integrator's go-ahead; only remainders start unauthorised.
    preAuthorized: raw.pre_authorized !== false,
    receivableFingerprint: guarded[i].fingerprint,
  }));
  const stock = new StockRepository(trx, originatorId);
  await stock.insert(rows);
  for (const row of rows) {
    await recordEvent(trx, {
      eventId: eventId(row.id, 'stock.item_registered'), originatorId, eventType: 'stock.item_registered', occurredAt: now,
      data: {
        stock_item_id: row.id, external_id: row.externalId, originator_id: originatorId, assignor_id: row.assignorId,
        net_future_value: row.netFutureValue, gross_future_value: row.grossFutureValue ?? row.netFutureValue,
        gross_future_value_deductions: row.grossFutureValueDeductions, due_date: row.dueDate, backing_type: row.backingType,
        pre_authorized: row.preAuthorized,
      },
    });
  }
  const stored = new Map((await stock.byIds(rows.map((row) => row.id))).map((item) => [item.id, item]));
  return { assignor_id: assignor.id, items: rows.map((row) => presentStockItem(stored.get(row.id)!)) };
}
