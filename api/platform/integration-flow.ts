/** The contract's "Integration flow", as data for `GET /v1/flow`. */
export const INTEGRATION_FLOW = [
  {
    step: 1, name: 'authenticate', optional: false,
    description: 'Exchange API credentials for a JWT (15 minutes).',
    calls: [{ method: 'POST', path: '/v1/auth/token', scope: null }],
  },
  {
    step: 2, name: 'products', optional: true,
    description: 'List valid product_id values with rate, term and value ranges.',
    calls: [{ method: 'GET', path: '/v1/products', scope: 'simulation:create' }],
  },
  {
    step: 3, name: 'simulate', optional: true,
    description: 'Compute net value, fees and discounts; creates nothing.',
    calls: [{ method: 'POST', path: '/v1/simulate', scope: 'simulation:create' }],
  },
  {
    step: 4, name: 'create', optional: false,
    description: 'Direct creation (the only path with partial anticipation), or stock registration then request-anticipation (100% of the items).',
    calls: [
      { method: 'POST', path: '/v1/operations/direct', scope: 'operation:create' },
      { method: 'POST', path: '/v1/stock', scope: 'stock:write' },
      { method: 'POST', path: '/v1/stock/request-anticipation', scope: 'stock:write' },
    ],
  },
  {
    step: 5, name: 'approval', optional: false,
    description: 'Born APPROVED_DIRECT within the auto-approval limit, else WAITING_APPROVAL until the backoffice decides. Webhook operation.approved.',
    calls: [{ method: 'GET', path: '/v1/operations/{id}', scope: 'operation:read' }],
  },
  {
    step: 6, name: 'contract', optional: false,
    description: 'Dispatched automatically after approval. With embedded_signature, present each signer\'s sign_url.',
    calls: [
      { method: 'GET', path: '/v1/operations/{id}/contract/signers', scope: 'contract:read' },
      { method: 'POST', path: '/v1/operations/{id}/contract/send-for-signature', scope: 'contract:send' },
    ],
  },
  {
    step: 7, name: 'disbursement', optional: false,
    description: 'After signature the assignor is paid by PIX; reconciliation follows. Webhooks operation.contract_signed, operation.paid.',
    calls: [],
  },
  {
    step: 8, name: 'follow', optional: false,
    description: 'Follow operations and titles until every payer pays.',
    calls: [
      { method: 'GET', path: '/v1/operations/{id}', scope: 'operation:read' },
      { method: 'GET', path: '/v1/titles/{id}', scope: 'operation:read' },
      { method: 'POST', path: '/v1/webhooks', scope: 'webhook:write' },
    ],
  },
];
