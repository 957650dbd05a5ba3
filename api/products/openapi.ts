import { clientSecurity, errors, json, listOf, pagination, ref } from '../openapi/helpers';
import { NFE_XML_POLICIES } from '../../domain/nfe-xml/proof';
import { NFE_BEYOND_CONSULT_AGE_POLICIES } from '../../domain/sefaz/consult-age';

export const productSchemas = {
  Product: {
    type: 'object',
    required: ['product_id', 'name', 'min_monthly_rate_pct', 'max_monthly_rate_pct', 'min_term_days', 'max_term_days', 'min_value_brl', 'max_value_brl',
      'nfe_xml', 'payer_confirmation', 'payer_confirmation_deadline_days', 'nfe_beyond_consult_age'],
    properties: {
      product_id: { type: 'string', format: 'uuid', description: 'The value for product_id in POST /v1/operations/direct' },
      name: { type: 'string' },
      description: { type: ['string', 'null'] },
      min_monthly_rate_pct: { type: 'number' },
      max_monthly_rate_pct: { type: 'number' },
      min_term_days: { type: 'integer', minimum: 0 },
      max_term_days: { type: 'integer', minimum: 0 },
      min_value_brl: ref('Money'),
      max_value_brl: ref('Money'),
      nfe_xml: {
        type: 'string', enum: [...NFE_XML_POLICIES],
        description: 'The NF-e XML policy: required refuses a receivable with an NF-e key of model 55 and no nfe_xml (422 nfe_xml_required); optional verifies the XML only when sent',
      },
      payer_confirmation: {
        type: 'string', enum: ['none', 'required'],
        description: '`required`: no PIX leaves before the payer\'s latest conclusive manifestação on each NF-e (model 55) is a confirmation (210200). The operation waits in '
          + 'SIGNED, asking SEFAZ again 15 min after the first check and doubling up to every 6 h, and is cancelled with `cancellation_reason` `payer_confirmation_missing` '
          + 'when the deadline passes. A payer\'s unknown_operation or not_performed still cancels at once. `none`: the payer\'s silence does not hold the PIX',
      },
      payer_confirmation_deadline_days: {
        type: 'integer', minimum: 1, maximum: 180,
        description: 'With `payer_confirmation` `required`: days from the first check before the PIX (on the operation\'s test clock when it has one) to the cancellation',
      },
      nfe_beyond_consult_age: {
        type: 'string', enum: [...NFE_BEYOND_CONSULT_AGE_POLICIES],
        description: 'What an NF-e SEFAZ no longer consults (cStat 526, beyond the consult\'s age limit) gets before the PIX: `refuse` (default) cancels the operation with '
          + '`cancellation_reason` `nfe_too_old_to_check`; `accept_with_xml` passes it when its receivable carried its `nfe_xml`, verified at creation, and refuses it otherwise',
      },
    },
  },
};

export const productPaths = {
  '/v1/products': {
    get: {
      operationId: 'listProducts', tags: ['products'], summary: 'Valid product_id values with rate, term and value ranges',
      description: 'Needs simulation:create or operation:read: whoever may price or read operations may read the catalogue.',
      security: clientSecurity(['simulation:create'], ['operation:read']),
      parameters: pagination,
      responses: { 200: json('Page of active products, by name', listOf(ref('Product'))), ...errors(401, 403, 422, 429) },
    },
  },
};
