import { clientScopes, DOCUMENT_MAX_LENGTH, errors, json, jsonBody, ref } from '../openapi/helpers';
import { checkedByHandler } from '../openapi/handler-checked';
import { NFE_CODES, receivablesList, simulationResponse, TARGET_PRICES_EVERY_RECEIVABLE } from '../openapi/receivable-components';
import { testClockIdInput } from '../test-clocks/openapi';

export const simulationPaths = {
  '/v1/simulate': {
    post: {
      operationId: 'simulate', tags: ['simulation'], summary: 'Price receivables as direct creation would; creates nothing',
      description: 'Read-only and retried freely; needs no Idempotency-Key. 422 codes: validation_error, VOCABULARY_CONFLICT, '
        + 'DEDUCTIONS_REQUIRED_WITH_GROSS, VALUE_DECOMPOSITION_MISMATCH, REQUESTED_VALUE_AMBIGUOUS, "Receivable <external_id>: requested_advance_value (...) '
        + 'cannot exceed net_face_value (...)", "total_liquid_value_brl exceeds total face value: ...", RECEIVABLE_DISCOUNT_EXCEEDS_BASE, '
        + `originator_policy_not_configured, policy_not_found; ${NFE_CODES} (the issuer is compared only when assignor_document is sent); `
        + 'CET_OUT_OF_BOUNDS only for a cost whose annual CET no number can express (otherwise the CET range is advisory here, in warnings). '
        + 'The double-assignment guard does not run here.',
      security: clientScopes('simulation:create'),
      requestBody: jsonBody(checkedByHandler({
        type: 'object',
        required: ['receivables'],
        properties: {
          assignor_document: { type: ['string', 'null'], maxLength: DOCUMENT_MAX_LENGTH, description: 'CPF or CNPJ; selects the assignor\'s fee defaults when registered' },
          policy_id: { type: ['string', 'null'], format: 'uuid', description: 'One of the originator\'s policies; default: the active one' },
          test_clock_id: testClockIdInput,
          receivables: receivablesList,
          fees: { anyOf: [ref('FeesInput'), { type: 'null' }] },
        },
      }, TARGET_PRICES_EVERY_RECEIVABLE)),
      responses: { 200: json('The priced operation (nothing persisted)', simulationResponse), ...errors(401, 403, 422, 429) },
    },
  },
};
