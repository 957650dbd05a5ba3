import { clientScopes, errors, idempotencyKey, json, jsonBody, listOf, pagination, ref } from '../openapi/helpers';
import { externalIdField, payableReadSecurity } from './openapi';

const uuid = { type: 'string', format: 'uuid' };

export const creditSchemas = {
  DiscountCredit: {
    type: 'object',
    required: ['id', 'assignor_id', 'amount_brl', 'reason', 'external_id', 'applied_to', 'created_at'],
    properties: {
      id: uuid,
      assignor_id: uuid,
      amount_brl: ref('Money'),
      reason: { type: 'string' },
      external_id: { type: ['string', 'null'] },
      applied_to: {
        type: 'array',
        description: 'The payables it settled, oldest first',
        items: { type: 'object', required: ['payable_id', 'amount_brl', 'remaining'], properties: { payable_id: uuid, amount_brl: ref('Money'), remaining: ref('Money') } },
      },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  DiscountCreditCreated: {
    allOf: [ref('DiscountCredit'), { type: 'object', required: ['idempotent_replay'], properties: { idempotent_replay: { type: 'boolean' } } }],
  },
};

export const creditPaths = {
  '/v1/discount-credits': {
    post: {
      operationId: 'grantDiscountCredit', tags: ['discount-credits'], summary: 'Reduce what an assignor owes',
      description: 'Applied at once to the assignor\'s open payables, oldest first. Deduplicated by (originator, external_id): a retry returns the original '
        + 'record with idempotent_replay true and credits nothing; another body is 409 external_id_reused_with_different_body (detail.fields). '
        + '422: assignor_not_found, discount_credit_exceeds_open_debt (detail has open_debt_brl).',
      security: clientScopes('payable:write'),
      parameters: [idempotencyKey(false)],
      requestBody: jsonBody({
        type: 'object',
        required: ['assignor_id', 'amount_brl', 'reason'],
        properties: {
          assignor_id: uuid,
          amount_brl: { ...ref('PositiveMoneyInput'), description: 'Above zero, at most the assignor\'s open debt' },
          reason: { type: 'string', minLength: 1, maxLength: 500 },
          external_id: { anyOf: [externalIdField, { type: 'null' }] },
        },
      }),
      responses: { 201: json('The credit (the original one on a replay)', ref('DiscountCreditCreated')), ...errors(401, 403, 409, 422, 429) },
    },
    get: {
      operationId: 'listDiscountCredits', tags: ['discount-credits'], summary: 'Credits of the originator, newest first',
      description: 'Only the caller\'s originator\'s credits, optionally filtered by assignor, paginated with `limit` and `offset`.',
      security: payableReadSecurity,
      parameters: [...pagination, { name: 'assignor_id', in: 'query', required: false, schema: uuid }],
      responses: { 200: json('Page of credits', listOf(ref('DiscountCredit'))), ...errors(401, 403, 422, 429) },
    },
  },
};
