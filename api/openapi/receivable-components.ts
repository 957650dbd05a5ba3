import { DOCUMENT_MAX_LENGTH, exclusiveWith, oneOfNames, ref, sent } from './helpers';
import { DECIMAL_STRING_MAX_LENGTH, NUMBER_GRID_EXTENSION, POSITIVE_RATE_PATTERN, RATE_NUMBER_GRID, RATE_PATTERN } from './components';
import { checkedByHandler } from './handler-checked';
import { RECEIVABLES_CEILING } from '../../domain/pricing/policy';
import { NFE_KEY_CODES } from '../../domain/nfe-key';
import { NFE_XML_CODES } from '../../domain/nfe-xml/proof';

/*
 * The receivable, its fees and the priced operation: fragments the simulation, direct creation and
 * stock anticipation sections all state, so they sit below every section, not in one of them.
 */

const money = (description: string, deprecated = false) => ({ ...ref('NullableMoneyInput'), description, ...(deprecated ? { deprecated: true } : {}) });
/** The net and requested values: zero is refused (greater_than), null counts as not sent. */
export const positiveMoney = (description: string, deprecated = false) => ({
  ...ref('NullablePositiveMoneyInput'), description, ...(deprecated ? { deprecated: true } : {}),
});
const rate = (description: string) => ({ ...ref('NullableRateInput'), description });
const out = (description: string) => ({ ...ref('Money'), description });
const twin = (canonical: string) => out(`Deprecated name of ${canonical}`);
const nullableText = { type: ['string', 'null'], maxLength: 120 };

/** The NF-e fields of a receivable or stock item (sent, stored and inherited by a remainder). */
export const nfeFields = {
  nfe_number: { ...nullableText, description: 'Must agree with nfe_key when both are sent (leading zeros ignored)' },
  nfe_serie: { ...nullableText, description: 'Must agree with nfe_key when both are sent (leading zeros ignored)' },
  nfe_key: {
    type: ['string', 'null'], maxLength: 60,
    description: 'NF-e access key: 44 digits (spaces ignored; the issuer CNPJ inside may be alphanumeric), valid check digit, model 55 or 65, '
      + 'issuer = the assignor (a CPF assignor: 000 + CPF). Stored without spaces, upper-cased. Identifies the invoice for the double-assignment guard.',
  },
  nfe_issue_date: { anyOf: [ref('Date'), { type: 'null' }], description: 'Must be in the year-month of nfe_key' },
  nfe_total_value: money('Total of the NF-e'),
};

/** SEFAZ refuses an NF-e message above 500 KB; in base64 that is about 683,000 characters. */
const NFE_XML_MAX_BASE64 = 700_000;

/** A receivable's NF-e XML: the procNFe (NFe + protNFe) as SEFAZ's authorization left it, in base64. */
export const nfeXmlField = {
  type: 'string', minLength: 1, maxLength: NFE_XML_MAX_BASE64, pattern: '^[A-Za-z0-9+/]+={0,2}$',
  description: 'The NF-e\'s XML, the procNFe (nfeProc: the signed NFe and its protNFe), UTF-8, in base64. When sent it is verified before anything is written '
    + '(the issuer\'s signature, its certificate chained to the ICP-Brasil roots, protNFe/infProt/digVal equal to the signed digest, chNFe equal to nfe_key, model 55, '
    + 'emit = the assignor, dest = the payer, due_date and the gross face value among cobr/dup) and stored sealed. POST /v1/simulate accepts it and does not verify it.',
};

/** Creation's proof of each NF-e sent with its XML (domain/nfe-xml/proof.ts), before SEFAZ is asked. */
export const NFE_XML_REFUSALS = `422 ${NFE_XML_CODES.join(', ')} (detail: code, message, external_id, loc: where the receivable's nfe_xml is or would be; `
  + 'nfe_xml_key_mismatch adds nfe_key and xml_key, nfe_xml_model_not_accepted model, nfe_xml_party_mismatch party (issuer or recipient), '
  + 'nfe_xml_installment_mismatch due_date and face_value; nfe_xml_required: the product\'s nfe_xml policy is required and a receivable with an NF-e key of model 55 has none)';

/** The 422 codes of the NF-e key, each with detail {code, message, external_id, field, loc, expected?}. */
export const NFE_CODES = `422 ${NFE_KEY_CODES.join(', ')} (detail: code, message, external_id, field, loc, expected)`;
/** Creation's check of each NF-e (model 55) at SEFAZ (domain/sefaz/creation-refusal.ts). */
export const SEFAZ_CODES = 'Each NF-e (model 55) is checked at SEFAZ before anything is written: 422 nfe_not_authorized (cancelled, denied, unknown to SEFAZ, '
  + 'or a key inconsistent with its NF-e; detail: code, message, external_id, loc, nfe_key, nfe_status, cstat, xmotivo), 422 nfe_disowned_by_payer '
  + '(the payer\'s latest conclusive manifestação is unknown_operation or not_performed; detail: code, message, external_id, loc, nfe_key, payer_event, '
  + 'payer_event_at, cstat, xmotivo). When SEFAZ does not answer within the request\'s budget the operation is created';
/** Creation's lookup of each NF-e's duplicata at the originator's escriturador (api/operations/creation/registrar-lookup.ts). */
export const ESCRITURADOR_CODES = 'For an originator that registers its acquisitions at an escriturador, each NF-e\'s duplicata is looked up there before anything is written: '
  + '409 receivable_encumbered (the assignor no longer holds it: transferred to another financier; detail: code, message, external_id, loc, nfe_key, duplicata_id, '
  + 'installment). An NF-e (model 55) of an assignor that is an individual (CPF; the key\'s issuer 000 + CPF) backs no duplicata an escriturador keeps: '
  + '422 nfe_issuer_not_registrable before any lookup (detail: code, message, external_id, loc, nfe_key). When the escriturador does not answer within the request\'s budget the operation is created and the act is registered before the PIX';
/** The double-assignment refusals (docs/decisions.md, "Double assignment"). */
export const DOUBLE_ASSIGNMENT_CODES = '409 receivable_already_assigned (detail: code, message, external_id, stock_item_id, operation_id: what of yours holds it), '
  + '409 receivable_assigned_elsewhere (policy double_assignment refuse; detail: code, message, external_id, nothing of the other holder)';

export const RATE_FIELDS = ['monthly_rate_pct', 'discount_pct', 'fixed_discount_brl'];

/**
 * `fees.total_liquid_value_brl` prices every receivable: next to it no receivable carries its own
 * rate fields or liquid_value_brl (422 value_error at fees.total_liquid_value_brl, both routes).
 */
export const TARGET_PRICES_EVERY_RECEIVABLE = {
  if: { required: ['fees'], properties: { fees: { type: 'object', ...sent('total_liquid_value_brl') } } },
  then: { properties: { receivables: { items: { properties: Object.fromEntries([...RATE_FIELDS, 'liquid_value_brl'].map((name) => [name, { type: 'null' }])) } } } },
};

/** The routes that create (direct creation, stock request-anticipation) refuse the target beside operation-level rates (domain/pricing/fees.ts). */
export const TARGET_EXCLUDES_OPERATION_RATES = { properties: { fees: exclusiveWith('total_liquid_value_brl', RATE_FIELDS) } };

/**
 * Both routes refuse a list longer than the policy's maximum N (at most RECEIVABLES_CEILING) with
 * 422 too_many_receivables_max_<N>, so the handler, not the validator, checks the length.
 */
export const receivablesList = checkedByHandler({
  type: 'array', minItems: 1, items: ref('ReceivableInput'),
  description: `At most the policy's maximum N (422 too_many_receivables_max_<N>), never above ${RECEIVABLES_CEILING}`,
}, { maxItems: RECEIVABLES_CEILING });

/** Receivable item and fees object: shared by `POST /v1/simulate` and `POST /v1/operations/direct`. */
export const simulationSchemas = {
  RateInput: checkedByHandler({
    description: 'Percent as a JSON number or a string, at most 4 decimals, from 0 to 100; the string forms are those of MoneyInput',
    type: ['number', 'string'],
    maxLength: DECIMAL_STRING_MAX_LENGTH,
  }, { pattern: RATE_PATTERN, minimum: 0, maximum: 100, [NUMBER_GRID_EXTENSION]: RATE_NUMBER_GRID }),
  NullableRateInput: { anyOf: [ref('RateInput'), { type: 'null' }] },
  PositiveRateInput: checkedByHandler({
    description: 'A RateInput above zero',
    type: ['number', 'string'],
    maxLength: DECIMAL_STRING_MAX_LENGTH,
  }, { pattern: POSITIVE_RATE_PATTERN, exclusiveMinimum: 0, maximum: 100, [NUMBER_GRID_EXTENSION]: RATE_NUMBER_GRID }),
  ReceivableInput: checkedByHandler({
    type: 'object',
    required: ['external_id', 'payer_name', 'payer_document', 'due_date'],
    description: 'The requested value is required under requested_net_future_value, requested_advance_value or requested_net_future_value_percent; '
      + 'net_future_value under either name. Both names of one value with different numbers give 422 VOCABULARY_CONFLICT.',
    properties: {
      external_id: { type: 'string', minLength: 1, maxLength: 120, description: 'Unique within the operation', examples: ['NF-1001'] },
      identifier: { type: ['string', 'null'], maxLength: 120 },
      payer_name: { type: 'string', minLength: 1, maxLength: 200, examples: ['Acme Ltda'] },
      payer_document: {
        type: 'string', maxLength: DOCUMENT_MAX_LENGTH, examples: ['11.222.333/0001-81'],
        description: 'CPF (11) or CNPJ (14, numeric or alphanumeric); punctuation accepted; check digits verified',
      },
      due_date: { type: 'string', format: 'date', description: 'A past date is not refused; it prices as zero days to due', examples: ['2027-01-15'] },
      backing_type: { type: ['string', 'null'], maxLength: 40, description: 'Default NFE; also RECURRING_CONTRACT, BOLETO' },
      gross_future_value: money('Gross face value; requires gross_future_value_deductions; NFV above it is refused'),
      gross_future_value_deductions: money('gross − net; managerial, enters no calculation; ignored without the gross'),
      net_future_value: positiveMoney('Ceiling of the anticipation (NFV), > 0; required under either name'),
      requested_net_future_value: positiveMoney('How much of the NFV is anticipated, > 0'),
      requested_net_future_value_percent: { anyOf: [ref('PositiveRateInput'), { type: 'null' }], description: '0 < p <= 100; p/100 × NFV rounded down to cents' },
      monthly_rate_pct: rate('Monthly rate, pro rata to days advanced (simple, base 30)'),
      discount_pct: rate('Flat % on the requested value, cumulative with the monthly rate'),
      fixed_discount_brl: money('Nominal discount in BRL'),
      liquid_value_brl: money('Net value wanted for this receivable, worked backwards; exclusive with the three rate fields'),
      gross_face_value: money('Deprecated name of gross_future_value (accepted alone, without deductions)', true),
      net_face_value: positiveMoney('Deprecated name of net_future_value', true),
      requested_advance_value: positiveMoney('Deprecated name of requested_net_future_value', true),
      ...nfeFields,
      nfe_xml: nfeXmlField,
    },
  }, {
    allOf: [
      oneOfNames('net_future_value', 'net_face_value'),
      oneOfNames('requested_net_future_value', 'requested_advance_value', 'requested_net_future_value_percent'),
      exclusiveWith('liquid_value_brl', RATE_FIELDS),
    ],
  }),
  FeesInput: {
    type: 'object',
    description: 'The operation level of the fee hierarchy. total_liquid_value_brl prices every receivable (spread by requested × days).',
    properties: {
      monthly_rate_pct: rate('Monthly rate %'),
      floating_days: { type: ['integer', 'null'], minimum: 0, maximum: 365 },
      discount_pct: rate('Flat discount %'),
      fixed_discount_brl: money('Nominal discount in BRL, per receivable'),
      total_liquid_value_brl: money('Target net total of the operation; above the sum of requested values gives 422'),
    },
  },
  PricedReceivable: {
    type: 'object',
    required: ['external_id', 'payer_name', 'payer_document', 'due_date', 'requested_net_future_value', 'net_future_value', 'gross_future_value',
      'days_advanced', 'monthly_rate_pct', 'floating_days', 'present_value_discount', 'net_present_liquid_value', 'fee_source'],
    properties: {
      external_id: { type: 'string' }, identifier: { type: ['string', 'null'] }, backing_type: { type: 'string' },
      payer_name: { type: 'string' }, payer_document: { type: 'string', description: 'As stored: digits (or the alphanumeric CNPJ)' },
      due_date: ref('Date'),
      gross_future_value: out('Gross, or the NFV when no gross was sent'), gross_face_value: twin('gross_future_value'),
      net_future_value: out('NFV'), net_face_value: twin('net_future_value'),
      requested_net_future_value: out('Anticipated value (resolved from the percent when sent so)'), requested_advance_value: twin('requested_net_future_value'),
      present_value_discount: out('Discount'), discounted_value: twin('present_value_discount'), discount_brl: twin('present_value_discount'),
      net_present_liquid_value: out('What the assignor receives for it'), liquid_value: twin('net_present_liquid_value'),
      gross_future_value_deductions: { anyOf: [ref('Money'), { type: 'null' }] },
      requested_net_future_value_percent: { type: ['number', 'null'] },
      days_to_due: { type: 'integer', minimum: 0 },
      floating_days: { type: 'integer', minimum: 0 },
      days_advanced: { type: 'integer', minimum: 0, description: 'Days to due plus floating days' },
      qty_days_advanced: { type: 'integer', minimum: 0, description: 'Same as days_advanced (the title\'s name)' },
      monthly_rate_pct: { type: 'number', description: 'Applied rate, or the implied one when priced by a net value' },
      discount_pct: { type: 'number' },
      fixed_discount_brl: ref('Money'),
      fee_source: ref('FeeSource'),
    },
  },
  FeeSource: { type: 'string', enum: ['receivable', 'operation', 'assignor', 'payer', 'policy'] },
  CetFinding: {
    type: 'object',
    required: ['code', 'message', 'scope', 'cet_monthly_pct'],
    properties: {
      code: { const: 'CET_OUT_OF_BOUNDS' }, message: { type: 'string' }, scope: { type: 'string', enum: ['operation', 'receivable'] },
      external_id: { type: 'string' }, cet_monthly_pct: { type: 'number' },
      min_cet_monthly_pct: { type: ['number', 'null'] }, max_cet_monthly_pct: { type: ['number', 'null'] },
    },
  },
};

/** The figures `renderPricedOperation` writes: simulation and the operation responses share them. */
export const pricedOperationProperties = {
  opr_gross_future_value: out('Σ gross'), opr_gross_face_value: twin('opr_gross_future_value'),
  opr_net_future_value: out('Σ NFV'), opr_net_face_value: twin('opr_net_future_value'),
  opr_requested_net_future_value: out('Σ requested'),
  opr_present_value_discount: out('Σ discounts'), opr_discounted_value: twin('opr_present_value_discount'),
  opr_net_present_liquid_value: out('The PIX amount: Σ liquid − other_debt_discounts'), opr_liquid_value: twin('opr_net_present_liquid_value'),
  opr_net_liquid_value: out('Σ liquid before other debts (informational; creation only)'),
  other_debt_discounts: out('Open assignor payables settled from the operation (creation only)'),
  floating_days: { type: 'integer', minimum: 0 },
  average_days_in_advance: { type: 'integer', description: 'Mean of days_advanced, rounded half-up' },
  weighted_avg_days: { type: 'number', description: 'days_advanced weighted by requested value, 2 decimals' },
  cet_monthly_pct: { type: 'number' },
  cet_annual_pct: { type: 'number' },
  fee_hierarchy: { type: 'string', examples: ['receivable > operation > assignor > payer > policy'] },
  assignor_defaults_used: { type: 'boolean' },
  payer_defaults_used: { type: 'boolean' },
};

export const simulationResponse = {
  type: 'object',
  required: ['id', 'status', 'opr_gross_future_value', 'opr_net_future_value', 'opr_present_value_discount', 'opr_net_present_liquid_value',
    'average_days_in_advance', 'weighted_avg_days', 'fee_hierarchy', 'assignor_defaults_used', 'payer_defaults_used', 'receivables'],
  properties: {
    id: { const: 'simulation', description: 'A fixed label: nothing is created' },
    status: { const: 'SIMULATED' },
    business_date: { ...ref('Date'), description: 'The pricing date, in America/Sao_Paulo' },
    policy_id: { type: 'string', format: 'uuid' },
    ...pricedOperationProperties,
    receivables: { type: 'array', items: ref('PricedReceivable') },
    warnings: { type: 'array', items: ref('CetFinding'), description: 'Advisory CET_OUT_OF_BOUNDS (enforced only on creation)' },
  },
};
