import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import openapiTS, { astToString } from 'openapi-typescript';
import { sharedApi } from '../support/stack';
import { ApiClient } from '../support/http';
import { newIdempotencyKey } from '../support/idempotency';
import { buildIntegrator } from '../support/factories';

const run = promisify(execFile);
const TSC = path.resolve('node_modules', 'typescript', 'bin', 'tsc');

/** One valid body per write route, typed by the client generated from the live document. */
const BODIES: Record<string, string> = {
  createToken: `{ client_id: 'zk_sbx_x', client_secret: 'sk_x', scope: 'stock:read' }`,
  login: `{ email: 'staff@example.com', password: 'secret' }`,
  createAssignor: `{ name: 'Acme Ltda', type: 'J', cnpj: '11.222.333/0001-81', email: 'fin@acme.example', address: { city: 'São Paulo' }, bank: { code: '001', agency: '1234', account: '56789-0' } }`,
  simulate: `{ receivables: [{ external_id: 'NF-1', payer_name: 'Payer', payer_document: '11.222.333/0001-81', due_date: '2027-01-15', net_future_value: '10000.00', requested_net_future_value: 10000 }], fees: { monthly_rate_pct: '2.5' } }`,
  createDirectOperation: `{ name: 'Acme Ltda', type: 'J', cnpj: '11.222.333/0001-81', email: 'fin@acme.example', bank: {}, receivables: [{ external_id: 'NF-1', payer_name: 'Payer', payer_document: '11.222.333/0001-81', due_date: '2027-01-15', net_future_value: '10000.00', requested_net_future_value_percent: 100 }] }`,
  registerStockItems: `{ assignor_document: '11.222.333/0001-81', items: [{ external_id: 'NF-1', payer_name: 'Payer', payer_document: '11.222.333/0001-81', due_date: '2027-01-15', net_future_value: '10000.00' }] }`,
  simulateStockAnticipation: `{ stock_item_ids: ['01930000-0000-7000-8000-00000000000a'], requested_net_future_value: '10000.00' }`,
  requestStockAnticipation: `{ stock_item_ids: ['01930000-0000-7000-8000-00000000000a'], requested_advance_value: 10000, bank: {}, product_id: null }`,
  changeStockItem: `{ pre_authorized: false }`,
  sendContractForSignature: `{ embedded: true }`,
  cancelOperation: `{ reason: 'client asked' }`,
  approveOperation: `{ note: 'ok' }`,
  inviteStaffUser: `{ email: 'new@example.com', name: 'New Staff', role: 'viewer' }`,
  changeStaffUser: `{ status: 'disabled' }`,
  enrolStaffUser: `{ enrolment_token: 'token', password: 'a-long-password' }`,
  denyOperation: `{ reason: 'too risky' }`,
  esignCallback: `{ document_id: 'doc-1' }`,
  pixCallback: `{ payment_id: 'pay-1' }`,
  pixCollectionCallback: `{ pix: [] }`,
  pixCollectionSweep: `{}`,
  sweepCollection: `{}`,
  simulateTitlePix: `{ webhook: 'once' }`,
  transferSandboxDuplicatas: `{ nfe_key: '52060433009911002506550120000007800267301615', holder_document: '11.222.333/0001-81' }`,
  startSandboxRegistrarOutage: `{ seconds: 30 }`,
  addSandboxStatementLine: `{ account: 'payout', kind: 'top_up', amount: '100.00' }`,
  setSandboxNfe: `{ status: 'cancelled', payer_event: null }`,
  startSandboxSefazOutage: `{ seconds: 30 }`,
  backofficeCancelOperation: `{ reason: 'assignor withdrew' }`,
  reconcileLedger: `{ business_date: '2026-11-27' }`,
  acceptLedgerReconciliation: `{ reason: 'a top-up the PSP booked' }`,
  recordPayerPayment: `{ paid_amount_brl: '100.00', external_id: 'PAY-1' }`,
  simulatePayerPayment: `{ paid_amount_brl: 100, external_id: 'PAY-1' }`,
  createAssignorPayable: `{ assignor_id: '01930000-0000-7000-8000-00000000000a', amount_brl: '1000.00', due_date: '2027-01-15', reason: 'chargeback' }`,
  payAssignorPayable: `{ source: 'ASSIGNOR_PIX_DIRECT', paid_amount_brl: '10.00' }`,
  registrarCallback: `{ evento: 'duplicata.liquidada', id: 'evt-1' }`,
  settleSandboxDuplicata: `{ nfe_key: '52060433009911002506550120000007800267301615', installment: '001', amount: '10.00' }`,
  putAssignorNfeCertificate: `{ pfx: 'MIIB', password: 'secret' }`,
  writeOffAssignorPayable: `{ reason: 'uncollectable' }`,
  grantDiscountCredit: `{ assignor_id: '01930000-0000-7000-8000-00000000000a', amount_brl: '10.00', reason: 'goodwill' }`,
  createWebhook: `{ url: 'https://hooks.example.com/in', events: ['operation.created'] }`,
  rotateWebhookSecret: `{ previous_secret_expires_in_seconds: 0 }`,
  recoverWebhook: `{ since: '2026-11-25T12:00:00Z', until: null }`,
  enableWebhook: `{ recover: true }`,
  codecDecode: `{ payloads: [{ metadata: { encoding: 'YmluYXJ5L2VuY3J5cHRlZA==' }, data: 'AAAA' }] }`,
  codecEncode: `{ payloads: [{ metadata: { encoding: 'anNvbi9wbGFpbg==' }, data: 'e30=' }] }`,
  createTestClock: `{ frozen_time: '2027-01-15T12:00:00Z', name: 'overdue path' }`,
  advanceTestClock: `{ frozen_time: '2027-03-15T12:00:00Z' }`,
  backofficeAdvanceTestClock: `{ frozen_time: '2027-03-15T12:00:00Z' }`,
  // Routes that read no body declare an ignored one (issue #24: the document states what the server accepts).
  cancelStockItem: '{}',
  retryDisbursement: '{}',
  retryWebhookDelivery: '{}',
  codecSession: '{}',
  backofficeResendContract: '{}',
  confirmRoleGrant: '{}',
  createAuditCheckpoint: '{}',
  reconcileRegistrations: '{}',
  reconcileSandboxRegistrations: '{}',
};

type Document = { paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>> };

describe('a TypeScript client generated from the live document (openapi-typescript)', () => {
  let client: ApiClient;
  let document: Document;
  before(async () => {
    client = new ApiClient((await sharedApi()).url);
    document = (await client.get('/v1/openapi.json')).body;
  });

  it('type-checks one valid body for every write route, and refuses a wrongly typed one', async function () {
    this.timeout(120_000);
    const writeRoutes = Object.values(document.paths).flatMap((item) => Object.values(item)).filter((op) => op.requestBody).map((op) => op.operationId);
    expect(Object.keys(BODIES).sort()).to.deep.equal(writeRoutes.sort());

    const folder = await mkdtemp(path.join(tmpdir(), 'openapi-client-'));
    try {
      // A default is what the server assumes when a request omits the field; openapi-typescript
      // would otherwise make every defaulted request property required.
      await writeFile(path.join(folder, 'api.ts'), astToString(await openapiTS(document as never, { defaultNonNullable: false })));
      const lines = Object.entries(BODIES).map(([operationId, body]) => `export const ${operationId}: Json<'${operationId}'> = ${body};`);
      await writeFile(path.join(folder, 'bodies.ts'), [
        `import type { operations } from './api';`,
        `type Json<Op extends keyof operations> = NonNullable<operations[Op]['requestBody']> extends { content: { 'application/json': infer B } } ? B : never;`,
        ...lines,
        // The types bite: were a body typed as unknown, this directive would itself be the error.
        `// @ts-expect-error receivables is an array of receivables`,
        `export const wrong: Json<'simulate'> = { receivables: 'none' };`,
      ].join('\n'));
      const result = await run(process.execPath, [TSC, '--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler',
        path.join(folder, 'bodies.ts')]).catch((err: { stdout: string }) => ({ stdout: err.stdout, failed: true }));
      expect(result.stdout).to.equal('');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});

/**
 * A body built from the schema alone: the required properties, the first alternative of each
 * either-or rule and what its if/then adds, each value from the property's `examples`.
 */
function exampleOf(document: Record<string, any>, schema: Record<string, any>): unknown {
  if (schema.$ref) return exampleOf(document, document.components.schemas[schema.$ref.split('/').pop()]);
  if (schema.examples) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const parts: Record<string, any>[] = [schema, ...(schema.allOf ?? [])];
  if (parts.some((part) => part.type === 'object' || part.properties)) {
    const properties = Object.assign({}, ...parts.map((part) => part.properties ?? {}));
    const required = new Set<string>(parts.flatMap((part) => part.required ?? []));
    const body: Record<string, unknown> = {};
    const fill = () => { for (const name of required) if (!(name in body)) body[name] = exampleOf(document, properties[name]); };
    for (const part of parts) for (const alternative of part.anyOf ?? []) {
      if (alternative.required?.every((name: string) => name in properties)) { alternative.required.forEach((name: string) => required.add(name)); break; }
    }
    fill();
    const conditions = parts.flatMap((part) => [...(part.anyOf?.[0]?.allOf ?? []), ...(part.allOf ?? [])]).filter((rule) => rule.if);
    for (const rule of conditions) {
      const [field, condition] = Object.entries<any>(rule.if.properties)[0];
      if (body[field] === condition.const) rule.then.required.forEach((name: string) => required.add(name));
    }
    fill();
    return body;
  }
  if (schema.anyOf) return exampleOf(document, schema.anyOf[0]);
  if (schema.type === 'array' || schema.items) return [exampleOf(document, schema.items)];
  throw new Error(`no example for ${JSON.stringify(schema).slice(0, 200)}`);
}

describe('a POST /v1/stock body built from the schema alone', () => {
  it('is accepted (201), with the assignor given by its fields', async () => {
    const client = new ApiClient((await sharedApi()).url);
    const { token } = await buildIntegrator(client);
    const document = (await client.get('/v1/openapi.json')).body;
    const schema = document.paths['/v1/stock'].post.requestBody.content['application/json'].schema;
    const body = exampleOf(document, { ...schema, allOf: schema.allOf.map((rule: Record<string, any>) => ({ ...rule, anyOf: rule.anyOf?.slice(1) })) }) as Record<string, unknown>;
    expect(body).to.have.keys('name', 'type', 'email', 'cpf', 'items');
    const res = await client.post('/v1/stock', body, { token, headers: { 'Idempotency-Key': newIdempotencyKey() } });
    expect(res.status, res.text).to.equal(201);
  });
});
