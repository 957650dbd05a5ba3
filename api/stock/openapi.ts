import { checkedByHandler, handlerRule } from '../openapi/handler-checked';
import { clientScopes, clientSecurity, documentByType, DOCUMENT_MAX_LENGTH, errors, oneOfNames, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref } from '../openapi/helpers';
import { assignorSchemas } from '../assignors/openapi';
import { DOUBLE_ASSIGNMENT_CODES, ESCRITURADOR_CODES, NFE_CODES, NFE_XML_REFUSALS, SEFAZ_CODES, nfeFields, nfeXmlField, positiveMoney, simulationResponse, simulationSchemas, TARGET_EXCLUDES_OPERATION_RATES } from '../openapi/receivable-components';
import { testClockIdInput } from '../test-clocks/openapi';
import { RECEIVABLES_CEILING } from '../../domain/pricing/policy';

const out = (description: string) => ({ ...ref('Money'), description });
const twin = (canonical: string) => out(`Deprecated name of ${canonical}`);
const money = (description: string, deprecated = false) => ({ ...ref('NullableMoneyInput'), description, ...(deprecated ? { deprecated: true } : {}) });
const reads = clientSecurity(['stock:read'], ['stock:write']);

/** The receivable fields a stock item shares with `POST /v1/simulate`; the requested value and pricing do not apply. */
const { external_id, identifier, payer_name, payer_document, due_date, backing_type } = simulationSchemas.ReceivableInput.properties;
const values = {
  gross_future_value: money('Gross face value; requires gross_future_value_deductions; NFV above it is a schema failure (validation_error)'),
  gross_future_value_deductions: money('gross − net; managerial; ignored without a gross'),
  net_future_value: positiveMoney('Net future value (NFV), > 0; required under either name; anticipated in full'),
  gross_face_value: money('Deprecated name of gross_future_value (accepted alone, without deductions)', true),
  net_face_value: positiveMoney('Deprecated name of net_future_value', true),
};

export const stockSchemas = {
  StockItemInput: checkedByHandler({
    type: 'object',
    required: ['external_id', 'payer_name', 'payer_document', 'due_date'],
    description: 'net_future_value (or net_face_value) is required. Both names of one value with different numbers give 422 VOCABULARY_CONFLICT.',
    properties: {
      external_id: { ...external_id, description: 'Unique within one registration' }, identifier, payer_name, payer_document, due_date, backing_type,
      ...nfeFields, ...values,
      pre_authorized: { type: ['boolean', 'null'], default: true, description: 'Default true; false keeps the item out of the anticipation routes until PATCHed' },
    },
  }, oneOfNames('net_future_value', 'net_face_value')),
  StockItem: {
    type: 'object',
    required: ['id', 'external_id', 'status', 'pre_authorized', 'assignor_id', 'payer_name', 'payer_document', 'due_date', 'backing_type',
      'gross_future_value', 'net_future_value', 'created_at'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      external_id: { type: 'string' }, identifier: { type: ['string', 'null'] },
      status: { type: 'string', description: 'IN_STOCK, ANTICIPATED, CANCELLED (tolerate new values)' },
      pre_authorized: { type: 'boolean' },
      assignor_id: { type: 'string', format: 'uuid' },
      payer_name: { type: 'string', description: 'As the payer was first registered' }, payer_document: { type: 'string' },
      due_date: ref('Date'), backing_type: { type: 'string' },
      nfe_number: { type: ['string', 'null'] }, nfe_serie: { type: ['string', 'null'] }, nfe_key: { type: ['string', 'null'] },
      nfe_issue_date: { type: ['string', 'null'], format: 'date' }, nfe_total_value: { anyOf: [ref('Money'), { type: 'null' }] },
      gross_future_value: out('Gross, or the NFV when none was given'), gross_face_value: twin('gross_future_value'),
      gross_future_value_deductions: { anyOf: [ref('Money'), { type: 'null' }] },
      net_future_value: out('NFV'), net_face_value: twin('net_future_value'),
      operation_id: { type: ['string', 'null'], format: 'uuid', description: 'The operation anticipating it, while ANTICIPATED' },
      source_operation_id: { type: ['string', 'null'], format: 'uuid', description: 'For a partial-anticipation remainder: the direct operation it came from' },
      created_at: { type: 'string', format: 'date-time' }, updated_at: { type: 'string', format: 'date-time' },
    },
  },
  StockAnticipationInput: checkedByHandler({
    type: 'object',
    required: ['stock_item_ids'],
    description: 'requested_net_future_value (or requested_advance_value) is required and must equal the sum of the items\' NFV.',
    properties: {
      stock_item_ids: { type: 'array', minItems: 1, maxItems: 1000, uniqueItems: true, items: { type: 'string', format: 'uuid' } },
      requested_net_future_value: positiveMoney('Σ NFV of the items'),
      requested_advance_value: positiveMoney('Deprecated name of requested_net_future_value', true),
      fees: { anyOf: [ref('FeesInput'), { type: 'null' }] },
      policy_id: { type: ['string', 'null'], format: 'uuid', description: 'One of the originator\'s policies; default: the active one' },
      test_clock_id: testClockIdInput,
    },
  }, oneOfNames('requested_net_future_value', 'requested_advance_value')),
};

const registration = checkedByHandler({
  type: 'object',
  required: ['items'],
  description: 'The assignor: assignor_document of a registered one, or the assignor fields (registered or reused by document, without an account): '
    + 'name, type, email, and cpf for type F or cnpj for type J.',
  properties: {
    assignor_document: { type: ['string', 'null'], maxLength: DOCUMENT_MAX_LENGTH, description: 'CPF or CNPJ of a registered assignor; 422 assignor_not_found otherwise' },
    ...assignorSchemas.AssignorFields.properties,
    items: { type: 'array', minItems: 1, maxItems: 500, items: ref('StockItemInput') },
  },
}, {
  // An empty or null assignor_document counts as not sent, a null name, type or email as missing.
  anyOf: [
    { required: ['assignor_document'], properties: { assignor_document: { type: 'string', minLength: 1, maxLength: DOCUMENT_MAX_LENGTH } } },
    { required: ['name', 'type', 'email'], properties: Object.fromEntries(['name', 'type', 'email'].map((name) => [name, { not: { type: 'null' } }])), ...documentByType },
  ],
});

const change = {
  type: 'object',
  minProperties: 1,
  properties: { pre_authorized: { type: 'boolean' }, ...values, ...nfeFields },
};

const request = {
  allOf: [ref('StockAnticipationInput'), {
    type: 'object',
    required: ['bank'],
    properties: {
      bank: ref('Bank'),
      embedded_signature: { type: 'boolean', default: false },
      product_id: { type: ['string', 'null'], format: 'uuid' },
      nfe_xmls: {
        type: 'array', maxItems: RECEIVABLES_CEILING,
        description: 'The NF-e XML of selected items, at most one per item (422 validation_error for an item not selected or given twice)',
        items: {
          type: 'object', required: ['stock_item_id', 'nfe_xml'], additionalProperties: false,
          properties: { stock_item_id: { type: 'string', format: 'uuid' }, nfe_xml: nfeXmlField },
        },
      },
    },
  }, handlerRule(TARGET_EXCLUDES_OPERATION_RATES)],
};

const simulation = {
  ...simulationResponse,
  description: 'The shape of POST /v1/simulate, plus assignor_id and each receivable\'s stock_item_id.',
  properties: {
    ...simulationResponse.properties,
    assignor_id: { type: 'string', format: 'uuid' },
    receivables: { type: 'array', items: { allOf: [ref('PricedReceivable'), { type: 'object', required: ['stock_item_id'], properties: { stock_item_id: { type: 'string', format: 'uuid' } } }] } },
  },
};

/** The stock codes both anticipation routes share, in the order they are checked. */
const GATES = 'In this order: 422 validation_error (a missing requested value reports loc [body, requested_advance_value]), 422 VOCABULARY_CONFLICT, '
  + '422 some_stock_items_not_found, 409 stock_item_<id>_not_available (not IN_STOCK), 409 stock_item_<id>_not_pre_authorized, '
  + '422 stock_items_of_several_assignors, 422 stock_items_share_external_id, 422 STOCK_ITEM_NFV_NOT_POSITIVE, 422 STOCK_ITEM_NFV_ABOVE_GROSS, '
  + '422 STOCK_REQUESTED_VALUE_MISMATCH, 422 originator_policy_not_configured / policy_not_found';
const PRICING = '422 "total_liquid_value_brl exceeds total face value: ...", 422 STOCK_ITEM_DISCOUNT_EXCEEDS_BASE';

export const stockPaths = {
  '/v1/stock': {
    post: {
      operationId: 'registerStockItems', tags: ['stock'], summary: 'Register receivables in stock, to anticipate later',
      description: 'Each item records a stock.item_registered event. 422: validation_error (NFV above gross, NFV <= 0, a repeated external_id), '
        + `VOCABULARY_CONFLICT, DEDUCTIONS_REQUIRED_WITH_GROSS, VALUE_DECOMPOSITION_MISMATCH, assignor_not_found, ${NFE_CODES}; ${DOUBLE_ASSIGNMENT_CODES}.`,
      security: clientScopes('stock:write'),
      parameters: [idempotencyKey(true)],
      requestBody: jsonBody(registration),
      responses: {
        201: json('Items registered, IN_STOCK', { type: 'object', required: ['assignor_id', 'items'], properties: { assignor_id: { type: 'string', format: 'uuid' }, items: { type: 'array', items: ref('StockItem') } } }),
        ...errors(401, 403, 409, 422, 429),
      },
    },
    get: {
      operationId: 'listStockItems', tags: ['stock'], summary: 'Stock items of the originator, newest first',
      description: 'Only the caller\'s originator\'s stock items, optionally filtered by `status`, paginated with `limit` and `offset`.',
      security: reads,
      parameters: [...pagination, { name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['IN_STOCK', 'ANTICIPATED', 'CANCELLED'] } }],
      responses: { 200: json('Page of stock items', listOf(ref('StockItem'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/stock/simulate-anticipation': {
    post: {
      operationId: 'simulateStockAnticipation', tags: ['stock'], summary: 'Price the anticipation of stock items; creates nothing',
      description: `Read-only and retried freely; needs no Idempotency-Key. ${GATES}, ${PRICING}. CET_OUT_OF_BOUNDS is only advisory here (warnings).`,
      security: reads,
      requestBody: jsonBody(ref('StockAnticipationInput')),
      responses: { 200: json('The priced anticipation (nothing persisted)', simulation), ...errors(401, 403, 409, 422, 429) },
    },
  },
  '/v1/stock/request-anticipation': {
    post: {
      operationId: 'requestStockAnticipation', tags: ['stock'], summary: 'Anticipate 100% of stock items of one assignor as one operation',
      description: 'The response has lifecycle_status filled, status null, created_at filled and disbursement_method null. bank gives the assignor '
        + `its first account only. ${GATES}, 422 too_many_receivables_max_<N>, 422 product_not_found, ${NFE_XML_REFUSALS}, ${SEFAZ_CODES} (loc [body, stock_item_ids, <i>, nfe_key]), ${ESCRITURADOR_CODES}, ${PRICING}, 422 CET_OUT_OF_BOUNDS, `
        + 'then the 403 limit codes (LIMIT_MAX_OPERATION_VALUE, LIMIT_MIN_OPERATION_VALUE, LIMIT_CONFIG_MISSING, LIMIT_ENTITY_CONFIG_MISSING, LIMIT_AGGREGATE_EXPOSURE). '
        + 'An item is the receivable it was registered as: anticipating it is no second assignment. When another originator holds an NF-e key of the items, '
        + '409 receivable_assigned_elsewhere (policy double_assignment refuse) or an operation born WAITING_APPROVAL and the event operation.flagged (review).',
      security: clientScopes('stock:write'),
      parameters: [idempotencyKey(true)],
      requestBody: jsonBody(request),
      responses: { 201: json('Operation created', ref('Operation')), ...errors(401, 403, 409, 422, 429) },
    },
  },
  '/v1/stock/{item_id}': {
    get: {
      operationId: 'getStockItem', tags: ['stock'], summary: 'One stock item',
      description: '404 stock_item_not_found when the id is unknown or belongs to another originator.',
      security: reads,
      parameters: [pathId('item_id')],
      responses: { 200: json('The stock item', ref('StockItem')), ...errors(401, 403, 404, 422, 429) },
    },
    patch: {
      operationId: 'changeStockItem', tags: ['stock'], summary: 'Change pre_authorized, the values or the NF-e fields of an IN_STOCK item',
      description: 'A null or absent field is left as it is. 404 stock_item_not_found; 409 stock_item_not_in_stock; 422: validation_error, '
        + 'VOCABULARY_CONFLICT, DEDUCTIONS_REQUIRED_WITH_GROSS, VALUE_DECOMPOSITION_MISMATCH (on the values sent), STOCK_ITEM_NFV_ABOVE_GROSS (on the resulting values), '
        + `${NFE_CODES} (on the resulting NF-e fields; loc [body, <field>]); when the NF-e fields change the invoice: ${DOUBLE_ASSIGNMENT_CODES}.`,
      security: clientScopes('stock:write'),
      parameters: [pathId('item_id'), idempotencyKey(false)],
      requestBody: jsonBody(change),
      responses: { 200: json('The changed item', ref('StockItem')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/stock/{item_id}/cancel': {
    post: {
      operationId: 'cancelStockItem', tags: ['stock'], summary: 'Withdraw an IN_STOCK item (IN_STOCK → CANCELLED)',
      description: '404 stock_item_not_found; 409 stock_item_cannot_be_cancelled when it is not IN_STOCK.',
      security: clientScopes('stock:write'),
      parameters: [pathId('item_id'), idempotencyKey(false)],
      responses: { 200: json('The cancelled item', ref('StockItem')), ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
};
