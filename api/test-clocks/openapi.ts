import { clientSecurity, errors, idempotencyKey, json, jsonBody, listOf, pagination, pathId, ref, staffActSecurity, timestampInput } from '../openapi/helpers';

/** Sandbox test clocks. Absent from production's document (api/document/document.ts), so 404 there. */
const timestamp = { type: 'string', format: 'date-time' };
const write = clientSecurity(['operation:create']);
const read = clientSecurity(['operation:read']);
const clockId = pathId('id');

export const testClockSchemas = {
  TestClock: {
    type: 'object',
    description: 'A sandbox test clock: the time of every operation created on it (`test_clock_id`). It stands still until advanced.',
    required: ['id', 'name', 'frozen_time', 'status', 'created_at', 'deletes_after'],
    properties: {
      id: { type: 'string', format: 'uuid' },
      name: { type: ['string', 'null'], maxLength: 100 },
      frozen_time: { ...timestamp, description: 'The clock\'s time; while `advancing`, the time it is advancing to.' },
      status: {
        type: 'string', enum: ['ready', 'advancing'],
        description: '`advancing` until every operation on the clock has done all that falls due up to `frozen_time`; then `ready` (and a `test_clock.ready` event).',
      },
      created_at: timestamp,
      deletes_after: { ...timestamp, description: 'The clock deletes itself then (30 days after creation).' },
    },
  },
  TestClockCreation: {
    type: 'object',
    additionalProperties: false,
    properties: {
      frozen_time: timestampInput({ ...timestamp, description: 'The clock\'s starting time, within 730 days (two years) of now either side (422 `test_clock_time_out_of_range` outside); now when absent.' }),
      name: { type: 'string', maxLength: 100 },
    },
  },
  TestClockAdvance: {
    type: 'object',
    required: ['frozen_time'],
    additionalProperties: false,
    properties: {
      frozen_time: timestampInput({ ...timestamp, description: 'Later than the clock\'s time, by at most 730 days.' }),
    },
  },
};

const sandboxNote = 'Sandbox only: production answers 404 `not_found`.';

export const testClockPaths = {
  '/v1/test-clocks': {
    post: {
      operationId: 'createTestClock', tags: ['test-clocks'], security: write,
      summary: 'Create a test clock, to see months of an operation\'s life in minutes',
      description: `${sandboxNote} Pass its id as \`test_clock_id\` when creating or simulating an operation; advance it with POST /v1/test-clocks/{id}/advance.`,
      parameters: [idempotencyKey(false)],
      requestBody: jsonBody(ref('TestClockCreation'), false),
      responses: { 201: json('Created, `ready`', ref('TestClock')), ...errors(401, 403, 409, 422, 429) },
    },
    get: {
      operationId: 'listTestClocks', tags: ['test-clocks'], security: read, summary: 'The originator\'s test clocks, newest first',
      description: `${sandboxNote} Deleted clocks are not listed.`,
      parameters: pagination,
      responses: { 200: json('Page of test clocks', listOf(ref('TestClock'))), ...errors(401, 403, 422, 429) },
    },
  },
  '/v1/test-clocks/{id}': {
    get: {
      operationId: 'getTestClock', tags: ['test-clocks'], security: read, summary: 'A test clock: its time and whether an advance runs',
      description: `${sandboxNote} 404 \`test_clock_not_found\` for an unknown, deleted or another originator's clock.`,
      parameters: [clockId],
      responses: { 200: json('The clock', ref('TestClock')), ...errors(401, 403, 404, 422, 429) },
    },
    delete: {
      operationId: 'deleteTestClock', tags: ['test-clocks'], security: write, summary: 'Delete a test clock; its operations stay readable and their title tracking ends',
      description: sandboxNote,
      parameters: [clockId, idempotencyKey(false)],
      responses: { 204: { description: 'Deleted; no body' }, ...errors(401, 403, 404, 409, 422, 429) },
    },
  },
  '/v1/test-clocks/{id}/advance': {
    post: {
      operationId: 'advanceTestClock', tags: ['test-clocks'], security: write,
      summary: 'Move a test clock forward: its operations apply every deadline up to the new time, in time order',
      description: `${sandboxNote} Answers at once with \`status: advancing\`; poll GET /v1/test-clocks/{id} (or subscribe to \`test_clock.ready\`) until \`ready\`. `
        + 'Refusals: 422 `test_clock_time_not_forward` (not after the clock\'s time), 422 `test_clock_advance_too_far` (more than 730 days), '
        + '409 `test_clock_advancing` (an advance still running).',
      parameters: [clockId, idempotencyKey(false)],
      requestBody: jsonBody(ref('TestClockAdvance')),
      responses: { 200: json('Advancing', ref('TestClock')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
  '/v1/backoffice/test-clocks/{id}/advance': {
    post: {
      operationId: 'backofficeAdvanceTestClock', tags: ['backoffice'], security: staffActSecurity(),
      summary: 'Staff: advance the test clock of a sandbox operation (the console\'s operation page)',
      description: `${sandboxNote} The same advance and refusals as POST /v1/test-clocks/{id}/advance, on any originator's clock; audited.`,
      parameters: [clockId, idempotencyKey(false)],
      requestBody: jsonBody(ref('TestClockAdvance')),
      responses: { 200: json('Advancing', ref('TestClock')), ...errors(401, 403, 404, 409, 422, 429, 503) },
    },
  },
};

/** `test_clock_id` on the pricing and creation bodies: the request runs at the clock's time. */
export const testClockIdInput = {
  type: ['string', 'null'], format: 'uuid',
  description: 'Sandbox only: the operation lives on this test clock (its time is "now" for pricing, every move and every event). '
    + '422 `test_clock_not_found` for an unknown, deleted or another originator\'s clock, and always in production.',
};
