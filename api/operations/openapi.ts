import { DOUBLE_ASSIGNMENT_CODES, ESCRITURADOR_CODES, NFE_CODES, NFE_XML_REFUSALS, SEFAZ_CODES, pricedOperationProperties, receivablesList, TARGET_EXCLUDES_OPERATION_RATES, TARGET_PRICES_EVERY_RECEIVABLE } from '../openapi/receivable-components';
import { handlerRule } from '../openapi/handler-checked';
import { clientScopes, errors, idempotencyKey, json, listOf, pagination, pathId, ref } from '../openapi/helpers';
import { testClockIdInput } from '../test-clocks/openapi';

const out = (description: string) => ({ ...ref('Money'), description });
const twin = (canonical: string) => out(`Deprecated name of ${canonical}`);
const pricedOperationPropertiesWithout = (...names: string[]) =>
  Object.fromEntries(Object.entries(pricedOperationProperties).filter(([name]) => !names.includes(name)));
const nullableMoney = { anyOf: [ref('Money'), { type: 'null' }] };

// The title as its own read returns it; an operation's read lists each with its NF-e check (OperationTitle).
const titleSchema = {
  type: 'object',
  required: ['id', 'external_id', 'backing_type', 'status', 'requested_net_future_value', 'net_present_liquid_value', 'present_value_discount',
    'due_date', 'qty_days_advanced', 'fee_source', 'monthly_rate_pct', 'discount_pct', 'fixed_discount_brl', 'is_partial', 'outstanding_balance', 'registration'],
  properties: {
    id: { type: 'string', format: 'uuid' },
    operation_id: { type: 'string', format: 'uuid' },
    external_id: { type: 'string' },
    identifier: { type: ['string', 'null'] },
    backing_type: { type: 'string' },
    status: { type: 'string', description: 'WAITING_PAYMENT, PARTIALLY_PAID, PAID, OVERDUE, CANCELLED (tolerate new values)' },
    payer_name: { type: 'string' },
    payer_document: { type: 'string' },
    gross_future_value: out('Gross face value'), gross_face_value: twin('gross_future_value'),
    net_future_value: out('NFV'), net_face_value: twin('net_future_value'),
    requested_net_future_value: out('Anticipated value'), requested_advance_value: twin('requested_net_future_value'),
    present_value_discount: out('Discount'), discounted_value: twin('present_value_discount'), discount_brl: twin('present_value_discount'),
    net_present_liquid_value: out('Paid to the assignor for it'), liquid_value: twin('net_present_liquid_value'),
    outstanding_balance: out('What the payer still owes on the anticipated value'),
    paid_amount: out('What the payer has paid'),
    due_date: ref('Date'),
    qty_days_advanced: { type: 'integer', description: 'Includes floating days' },
    fee_source: ref('FeeSource'),
    monthly_rate_pct: { type: ['number', 'null'] },
    discount_pct: { type: ['number', 'null'] },
    fixed_discount_brl: nullableMoney,
    is_partial: { type: 'boolean' },
    stock_item_id: { type: ['string', 'null'], format: 'uuid' },
    grace_days: { type: 'integer', minimum: 0, maximum: 2_147_483_647, description: 'Days after the due date the payer may still pay before the title turns OVERDUE (its operation\'s policy; 0 without one)' },
    overdue_at: {
      type: 'string', format: 'date-time',
      description: 'When a balance still unpaid turns the title OVERDUE and opens the assignor\'s payable: the start of the business day after the due date plus `grace_days` (São Paulo). On a test clock, once the clock passes it',
    },
    pix_charge: { anyOf: [ref('PixCharge'), { type: 'null' }], description: 'The PIX charge the payer pays the title with; null until the operation is PAID, or when its originator collects no PIX' },
    dispute: {
      anyOf: [ref('TitleDispute'), { type: 'null' }],
      description: 'Set when the daily re-check after payout found the title\'s NF-e cancelled or disowned by its payer (event `title.disputed`); null otherwise. Nothing moves by itself: the title stays payable',
    },
    registration: ref('TitleRegistration'),
    created_at: { type: 'string', format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

export const operationSchemas = {
  LifecycleStatus: {
    type: 'string',
    description: 'Authoritative state. Clients must tolerate new values.',
    enum: ['WAITING_APPROVAL', 'APPROVED_DIRECT', 'PRE_APPROVED', 'CONTRACT_SENT', 'CONTRACT_ERROR', 'SIGNED', 'DISBURSING',
      'DISBURSEMENT_FAILED', 'PAID', 'SETTLED', 'DENIED', 'CANCELLED'],
  },
  Title: titleSchema,
  PixCharge: {
    type: 'object',
    description: 'A PIX charge with due date (API Pix `cobv`) at the originator\'s collection PSP, issued when the operation reaches PAID. '
      + 'Give `br_code` to the payer: pasted into any bank\'s app ("Pix copia e cola") or shown as a QR code, it pays the title; fine and interest accrue after the due date.',
    required: ['txid', 'status', 'br_code', 'expires_at'],
    properties: {
      txid: { type: 'string', pattern: '^[a-zA-Z0-9]{26,35}$', description: 'The charge\'s id at the PSP, derived from the title' },
      status: {
        type: 'string', enum: ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'],
        description: 'As API Pix names them: ATIVA payable, CONCLUIDA paid, REMOVIDA_PELO_USUARIO_RECEBEDOR removed by us (the title closed), REMOVIDA_PELO_PSP expired or removed by the PSP',
      },
      br_code: { type: 'string', description: 'The BR Code (EMV payload, tag 26 `br.gov.bcb.pix` with the charge\'s location, CRC16 in tag 63)' },
      expires_at: { type: 'string', format: 'date-time', description: 'When the charge stops being payable: the due date plus the policy\'s grace days' },
    },
  },
  OperationTitle: {
    ...titleSchema,
    description: 'A title as its operation lists it: the title\'s read plus its NF-e check',
    required: [...titleSchema.required, 'nfe_check'],
    properties: { ...titleSchema.properties, nfe_check: ref('NfeCheck') },
  },
  TitleDispute: {
    type: 'object',
    description: 'Why an open title is in dispute: what SEFAZ answered on its NF-e after payout',
    required: ['reason', 'cstat', 'xmotivo', 'payer_event', 'disputed_at'],
    properties: {
      reason: { type: 'string', maxLength: 64, pattern: '^[a-z_]+$', description: '`nfe_cancelled` or `nfe_disowned_by_payer` (treat unknown values as a dispute for a reason not listed here)' },
      cstat: { type: 'string', pattern: '^[0-9]{3}$', maxLength: 3 },
      xmotivo: { type: 'string', maxLength: 255 },
      payer_event: { anyOf: [{ type: 'string', enum: ['unknown_operation', 'not_performed'] }, { type: 'null' }], description: 'The payer\'s manifestação that disowned it, if that was the reason' },
      disputed_at: { type: 'string', format: 'date-time' },
    },
  },
  TitleRegistration: {
    type: 'object',
    description: 'Our acquisition of the title\'s duplicata escritural, recorded at the assignor\'s escriturador before the PIX (Lei 13.775/2018, Res. BCB 339/2023). '
      + '`not_registrable`: no NF-e model 55 backs the title (a boleto, an NFS-e, an NFC-e...), every other field null; `not_requested`: not asked yet (the act is '
      + 'recorded right before the PIX), or the originator registers at no escriturador; `requested`: asked, no answer yet, and the operation waits; `registered`: '
      + 'our act is in force (no PIX leaves before every title\'s is); `refused`: the escriturador refused it (`refusal_reason`) and the operation is cancelled '
      + 'with `receivable_encumbered`; `cancelled`: our act was cancelled (the operation fell through, or the title went back to the assignor); `settled`: the '
      + 'duplicata is paid in full. Treat unknown statuses as not registered',
    required: ['status', 'registrar', 'duplicata_id', 'act_id', 'negotiation_type', 'registered_at', 'refusal_reason'],
    properties: {
      status: { type: 'string', enum: ['not_registrable', 'not_requested', 'requested', 'registered', 'refused', 'cancelled', 'settled'] },
      registrar: { type: ['string', 'null'], maxLength: 64, pattern: '^[a-z0-9_]+$', description: 'The escriturador holding the duplicata (`sandbox` outside production)', examples: ['sandbox'] },
      duplicata_id: { type: ['string', 'null'], maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$', description: 'The duplicata\'s id at the escriturador' },
      act_id: { type: ['string', 'null'], maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$', description: 'Our act\'s id at the escriturador, once registered' },
      negotiation_type: {
        anyOf: [{ type: 'string', enum: ['aquisicao', 'aquisicao_com_regresso', 'desconto', 'credito_garantido'] }, { type: 'null' }],
        description: 'How the acquisition is recorded, by the holder\'s nature (Res. BCB 339/2023 as amended)',
      },
      registered_at: { type: ['string', 'null'], format: 'date-time', description: 'When the escriturador recorded our act' },
      refusal_reason: {
        anyOf: [{ type: 'string', enum: ['not_holder', 'already_transferred'] }, { type: 'null' }],
        description: '`not_holder`: the assignor never held the duplicata; `already_transferred`: it held it and negotiated it away before us',
      },
    },
  },
  NfeCheck: {
    type: 'object',
    description: 'The receivable\'s NF-e checked at SEFAZ right before the PIX (the latest check). `not_applicable`: no NF-e model 55 backs it (an NFC-e, model 65; '
      + 'an NFS-e or CT-e; a receivable without an NF-e key); `pending`: not checked yet, or SEFAZ gave no verdict yet (cstat then says what it answered: 108/109 '
      + 'paused, 656...), or its product requires the payer\'s confirmation and the payer has not confirmed yet (`reason` `payer_confirmation_missing`), and the operation waits; '
      + '`passed`; `refused`: the operation is cancelled (its `cancellation_reason` says why)',
    required: ['status', 'reason', 'cstat', 'xmotivo', 'payer_event', 'payer_events', 'checked_at'],
    properties: {
      status: { type: 'string', enum: ['passed', 'refused', 'pending', 'not_applicable'] },
      reason: {
        type: ['string', 'null'], maxLength: 64, pattern: '^[a-z_]+$',
        description: 'On `refused`, why (the operation\'s `cancellation_reason`); on `pending`, `payer_confirmation_missing` while the operation waits for the payer\'s confirmation '
          + '(it is cancelled with that reason at the product\'s deadline). Null otherwise. Treat unknown values as a reason not listed here',
        examples: ['payer_confirmation_missing'],
      },
      cstat: { type: ['string', 'null'], pattern: '^[0-9]{3}$', maxLength: 3, description: 'SEFAZ\'s cStat of the answer that decided (the consult\'s; the distribution\'s when the payer\'s word decided)' },
      xmotivo: { type: ['string', 'null'], maxLength: 255, description: 'SEFAZ\'s xMotivo with that cStat' },
      payer_event: { anyOf: [{ type: 'string', enum: ['confirmed', 'aware', 'unknown_operation', 'not_performed'] }, { type: 'null' }], description: 'The payer\'s latest conclusive manifestação seen, if any (`aware`, ciência, is not conclusive and so never shows here)' },
      payer_events: {
        anyOf: [{ type: 'string', enum: ['read', 'not_available'] }, { type: 'null' }],
        description: '`read`: the check read the payer\'s manifestações (NFeDistribuicaoDFe); `not_available`: SEFAZ would not show them to the certificate we hold '
          + '(the issuer has not delegated its A1 certificate: `PUT /v1/assignors/{assignor_id}/nfe-certificate`), so the NF-e passed on the consult alone, or, under a product '
          + 'whose `payer_confirmation` is `required`, waits as for a missing confirmation. Null before any check and when not applicable',
      },
      checked_at: { type: ['string', 'null'], format: 'date-time' },
    },
  },
  Operation: {
    type: 'object',
    description: 'Creation response and read. The contract names the state twice, by channel: the answer to `POST /v1/operations/direct` fills `status` '
      + 'and leaves `lifecycle_status` and `created_at` null; the stock path\'s answer and every read fill `lifecycle_status` and `created_at` and leave `status` null. '
      + 'They are one state: read it as `lifecycle_status ?? status`, and `created_at` from a read (or the `operation.created` event\'s `occurred_at`).',
    required: ['id', 'display_number', 'status', 'lifecycle_status', 'opr_gross_future_value', 'opr_net_future_value', 'opr_present_value_discount',
      'opr_net_present_liquid_value', 'opr_net_liquid_value', 'other_debt_discounts', 'average_days_in_advance', 'floating_days', 'product_id',
      'needs_backoffice_approval', 'created_at', 'titles', 'fee_hierarchy', 'has_partial_anticipations', 'contract_details', 'signers_count', 'disbursement_method'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      display_number: { type: 'string', pattern: '^OP-[0-9A-Z]{8}-[0-9A-Z]{8}$' },
      status: { anyOf: [ref('LifecycleStatus'), { type: 'null' }], description: 'Legacy alias: filled by direct creation only' },
      lifecycle_status: { anyOf: [ref('LifecycleStatus'), { type: 'null' }], description: 'Null in direct creation; filled by the stock path and reads' },
      assignor_id: { type: 'string', format: 'uuid' },
      ...pricedOperationPropertiesWithout('assignor_defaults_used', 'payer_defaults_used'),
      product_id: { type: ['string', 'null'], format: 'uuid' },
      policy_id: { type: ['string', 'null'], format: 'uuid' },
      needs_backoffice_approval: { type: 'boolean' },
      embedded_signature: { type: 'boolean' },
      created_at: { type: ['string', 'null'], format: 'date-time', description: 'Null in direct creation' },
      updated_at: { type: 'string', format: 'date-time' },
      titles: {
        type: 'array',
        items: ref('OperationTitle'),
      },
      fee_hierarchy: { type: 'string' },
      has_partial_anticipations: { type: 'boolean' },
      contract_details: {
        type: 'object',
        required: ['type', 'signature_date', 'signer_token'],
        properties: { type: { type: 'string', examples: ['FULL_CONTRACT', 'ADDENDUM'] }, signature_date: { type: ['string', 'null'] }, signer_token: { type: ['string', 'null'] } },
      },
      signers_count: { type: 'integer' },
      disbursement_method: { type: ['string', 'null'], description: 'pix_document or bank_account; null in the stock path; treat unknown values as unknown' },
      cancellation_reason: {
        type: ['string', 'null'], maxLength: 64, pattern: '^[a-z_]+$',
        description: 'Why a CANCELLED operation was cancelled: `requested` (the integrator or support cancelled it), or the check before the PIX that refused what backs it: '
          + '`nfe_cancelled`, `nfe_denied`, `nfe_unknown`, `nfe_forged` (the NF-e at SEFAZ), `nfe_too_old_to_check` (cStat 526: SEFAZ no longer answers for it), '
          + '`nfe_disowned_by_payer` (the payer\'s latest conclusive manifestação is unknown_operation or not_performed), `payer_confirmation_missing` (the product requires the payer\'s '
          + 'confirmation, 210200, and none came by its deadline), `receivable_encumbered` (the escriturador refused our acquisition of a title\'s duplicata: its `registration` '
          + 'says which and why). Null otherwise, and on operations cancelled before this field existed. '
          + 'Treat unknown values as a cancellation for a reason not listed here',
        examples: ['nfe_cancelled'],
      },
      test_clock_id: { type: 'string', format: 'uuid', description: 'Sandbox only, present when the operation lives on a test clock' },
    },
  },
};

const directBody = {
  allOf: [
    ref('AssignorFields'),
    {
      type: 'object',
      required: ['bank', 'receivables'],
      properties: {
        bank: ref('Bank'),
        receivables: receivablesList,
        fees: { anyOf: [ref('FeesInput'), { type: 'null' }] },
        product_id: { type: ['string', 'null'], format: 'uuid' },
        policy_id: { type: ['string', 'null'], format: 'uuid' },
        embedded_signature: { type: 'boolean', default: false },
        test_clock_id: testClockIdInput,
      },
    },
    handlerRule(TARGET_PRICES_EVERY_RECEIVABLE),
    handlerRule(TARGET_EXCLUDES_OPERATION_RATES),
  ],
};

/**
 * Whole bodies for the reference: no assignor's CNPJ is a payer's (the simulation examples' payer), and each example has
 * its own assignor, since an assignor registered once keeps the disbursement method of its registration.
 */
const DIRECT_RECEIVABLE = {
  external_id: 'NF-1001', payer_name: 'Acme Ltda', payer_document: '11.222.333/0001-81', due_date: '2027-01-15',
  net_future_value: '10000.00', requested_net_future_value: '10000.00',
};
const DIRECT_EXAMPLES = {
  pix_on_document: {
    summary: 'A company paid by PIX on its CNPJ (`bank: {}` would do the same)',
    value: { name: 'Comercial Exemplo Ltda', type: 'J', cnpj: '45.237.189/0001-79', email: 'finance@comercial.example', bank: { use_document_pix: true }, receivables: [DIRECT_RECEIVABLE] },
  },
  bank_account: {
    summary: 'A company paid into a bank account, with two receivables (the second anticipated in part) and the dev seed\'s product of originator A',
    value: {
      name: 'Industria Modelo S.A.', type: 'J', cnpj: '31.855.446/0001-21', email: 'tesouraria@industria.example', product_id: '01930000-0000-7000-8000-0000000000a3',
      bank: { code: '341', agency: '0001', account: '12345-6', type: 'CC' },
      receivables: [DIRECT_RECEIVABLE, { ...DIRECT_RECEIVABLE, external_id: 'NF-1002', due_date: '2027-02-15', net_future_value: '5000.00', requested_net_future_value: '2500.00' }],
    },
  },
};

export const operationPaths = {
  '/v1/operations/direct': {
    post: {
      operationId: 'createDirectOperation', tags: ['operations'], summary: 'Anticipate receivables in one call (assignor, receivables, bank)',
      description: 'The only route with partial anticipation: the rest of each receivable returns to stock as a new item. 403 limit codes: '
        + 'LIMIT_MAX_OPERATION_VALUE, LIMIT_MIN_OPERATION_VALUE, LIMIT_AGGREGATE_EXPOSURE, LIMIT_CONFIG_MISSING, LIMIT_ENTITY_CONFIG_MISSING. '
        + `422: the vocabulary and simulation codes, CET_OUT_OF_BOUNDS, too_many_receivables_max_<N>, product_not_found, ${NFE_CODES}. ${NFE_XML_REFUSALS}. ${SEFAZ_CODES}. ${ESCRITURADOR_CODES}. `
        + `${DOUBLE_ASSIGNMENT_CODES}. With policy double_assignment review, a receivable whose NF-e key another originator holds makes the operation `
        + 'WAITING_APPROVAL whatever its amount (needs_backoffice_approval true) and records operation.flagged.',
      security: clientScopes('operation:create'),
      parameters: [idempotencyKey(true)],
      requestBody: { required: true, content: { 'application/json': { schema: directBody, examples: DIRECT_EXAMPLES } } },
      responses: { 201: json('Operation created', ref('Operation')), ...errors(401, 403, 409, 422, 429) },
    },
  },
  '/v1/operations': {
    get: {
      operationId: 'listOperations', tags: ['operations'], summary: 'Operations of the originator, newest first',
      description: 'Only the caller\'s originator\'s operations, optionally filtered by `lifecycle_status`, paginated with `limit` and `offset`.',
      security: clientScopes('operation:read'),
      parameters: [...pagination, { name: 'lifecycle_status', in: 'query', required: false, schema: ref('LifecycleStatus') }],
      responses: { 200: json('Page of operations', listOf(ref('Operation'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/operations/{id}': {
    get: {
      operationId: 'getOperation', tags: ['operations'], summary: 'One operation with its titles',
      description: 'The operation and its titles; read the state as `lifecycle_status ?? status`. 404 when the id is unknown or belongs to another originator.',
      security: clientScopes('operation:read'),
      parameters: [pathId('id')],
      responses: { 200: json('The operation', ref('Operation')), ...errors(401, 403, 404, 422, 429) },
    },
  },
};
