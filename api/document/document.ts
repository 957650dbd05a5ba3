import { checkpointPaths, checkpointSchemas } from '../audit/checkpoint-openapi';
import { components } from '../openapi/components';
import type { ServiceEnv } from '../../platform/config/config';
import { platformPaths } from '../platform/openapi';
import { authPaths } from '../auth/openapi';
import { assignorPaths, assignorSchemas } from '../assignors/openapi';
import { productPaths, productSchemas } from '../products/openapi';
import { simulationPaths } from '../simulation/openapi';
import { simulationSchemas } from '../openapi/receivable-components';
import { operationPaths, operationSchemas } from '../operations/openapi';
import { contractPaths, contractSchemas } from '../operations/contract-openapi';
import { stockPaths, stockSchemas } from '../stock/openapi';
import { titlePaths, titlePaymentPaths, titlePaymentSchemas } from '../titles/openapi';
import { payablePaths, payableSchemas } from '../payables/openapi';
import { creditPaths, creditSchemas } from '../payables/credit-openapi';
import { ledgerPaths, ledgerSchemas } from '../ledger/openapi';
import { ledgerBackofficePaths, ledgerBackofficeSchemas } from '../ledger/backoffice-openapi';
import { webhookPaths, webhookSchemas } from '../webhooks/openapi';
import { webhookEvents } from '../webhooks/event-openapi';
import { eventPaths, eventSchemas } from '../events/openapi';
import { auditPaths, auditSchemas } from '../audit/openapi';
import { staffPaths, staffSchemas } from '../staff/openapi';
import { approvalPaths, approvalSchemas, backofficePaths, backofficeSchemas } from '../backoffice/openapi';
import { codecPaths, codecSchemas } from '../backoffice/codec-openapi';
import { systemPaths, systemSchemas } from '../backoffice/system-openapi';
import { providerCallbackPaths } from '../provider-callbacks/openapi';
import { testClockPaths, testClockSchemas } from '../test-clocks/openapi';
import { collectionPaths, collectionSchemas } from '../collection/openapi';
import { sefazPaths, sefazSchemas } from '../sefaz/openapi';
import { registrarPaths } from '../registrar/openapi';
import { pipelineHeaders, withPipelineAnswers } from './pipeline-answers';
import { addLinks } from './links';
import { withFormatBounds } from './format-bounds';
import type { Operation } from '../openapi/helpers';

/**
 * The document's tags in the order Swagger UI shows them. Each section's folder under `api/`
 * holds its routes and its `openapi.ts` (contracts live with operations, assignor-payables and
 * discount-credits in `payables/`, codec with backoffice, internal in `provider-callbacks/`).
 */
const TAGS = [
  { name: 'platform', description: 'Health, the integration flow, this document and its frozen releases' },
  { name: 'auth', description: 'Tokens for integrations (client credentials) and users (login), and the keys that verify them' },
  { name: 'assignors', description: 'The businesses (cedentes) whose receivables an originator anticipates' },
  { name: 'products', description: 'The catalogue of products: rates, terms and value ranges' },
  { name: 'simulation', description: 'Pricing of receivables without creating anything' },
  { name: 'operations', description: 'Anticipation operations: creation in one call, reads and cancellation' },
  { name: 'stock', description: 'Receivables registered ahead of time and anticipated later' },
  { name: 'contracts', description: 'The assignment contract of an operation and its e-signature' },
  { name: 'titles', description: 'The receivables of an operation after disbursement and their payers\' payments' },
  { name: 'assignor-payables', description: 'What an assignor owes the originator, its payments and write-offs' },
  { name: 'discount-credits', description: 'Credits that reduce what an assignor owes' },
  { name: 'ledger', description: 'The originator\'s double-entry books: accounts, balances at any moment, transactions, the trial balance' },
  { name: 'webhooks', description: 'Subscriptions to events, their deliveries and signing secrets' },
  { name: 'events', description: 'The originator\'s events of the last 30 days, to pull what the webhooks carried' },
  { name: 'codec', description: 'Temporal Web\'s remote payload codec, for operators (decodes encrypted workflow payloads)' },
  { name: 'backoffice', description: 'Staff routes across originators: the approval queue, decisions, the operation page and stuck operations (user tokens)' },
  { name: 'internal', description: 'Callbacks from the e-signature and PIX providers; not for integrators' },
  { name: 'test-clocks', description: 'Sandbox only: test clocks, to see the months after disbursement (due dates, overdue, payables, netting) in minutes' },
];

/** Paths production's document leaves out. */
const SANDBOX_ONLY = ['/v1/sandbox/', '/v1/test-clocks', '/v1/backoffice/test-clocks'];

interface Part {
  paths: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

/**
 * The sections' paths and schemas in the order the document lists them: Swagger UI shows a tag's
 * operations in path order, and the order is the one release 1.6.0 was frozen with.
 */
const PARTS: Part[] = [
  { paths: platformPaths },
  { paths: authPaths },
  { paths: assignorPaths, schemas: assignorSchemas },
  { paths: productPaths, schemas: productSchemas },
  { paths: simulationPaths, schemas: simulationSchemas },
  { paths: operationPaths, schemas: operationSchemas },
  { paths: titlePaths },
  { paths: stockPaths, schemas: stockSchemas },
  { paths: contractPaths, schemas: contractSchemas },
  { paths: approvalPaths, schemas: approvalSchemas },
  { paths: providerCallbackPaths },
  { paths: titlePaymentPaths, schemas: titlePaymentSchemas },
  { paths: collectionPaths, schemas: collectionSchemas },
  { paths: sefazPaths, schemas: sefazSchemas },
  { paths: registrarPaths },
  { paths: payablePaths, schemas: payableSchemas },
  { paths: creditPaths, schemas: creditSchemas },
  { paths: ledgerPaths, schemas: ledgerSchemas },
  { paths: ledgerBackofficePaths, schemas: ledgerBackofficeSchemas },
  { paths: webhookPaths, schemas: webhookSchemas },
  { paths: codecPaths, schemas: codecSchemas },
  { paths: backofficePaths, schemas: backofficeSchemas },
  { paths: eventPaths, schemas: eventSchemas },
  { paths: systemPaths, schemas: systemSchemas },
  { paths: auditPaths, schemas: auditSchemas },
  { paths: checkpointPaths, schemas: checkpointSchemas },
  { paths: staffPaths, schemas: staffSchemas },
  { paths: testClockPaths, schemas: testClockSchemas },
];

/** The document's paths, each method's operation as a plain object, and the rest of it. */
export interface ServedDocument {
  paths: Record<string, Record<string, Operation>>;
  [field: string]: unknown;
}

/**
 * The OpenAPI 3.1 document: the single source of request shapes, route security and the
 * statuses each route can answer. Served live at `GET /v1/openapi.json`.
 */
export function buildDocument(publicUrl: string, serviceEnv: ServiceEnv): ServedDocument {
  const base = components(publicUrl);
  const paths: ServedDocument['paths'] = Object.assign({}, ...PARTS.map((part) => part.paths));
  // Production has no simulated counterparts nor test clocks: their routes are absent, so they are also 404.
  if (serviceEnv === 'prod') for (const path of Object.keys(paths)) if (SANDBOX_ONLY.some((prefix) => path.startsWith(prefix))) delete paths[path];
  const answered = withPipelineAnswers(paths);
  addLinks(answered);
  const document = withFormatBounds({
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    info: {
      title: 'Receivables Anticipation API',
      version: '1.7.0',
      description: 'Multi-tenant API with which originators anticipate receivables owed to their assignors, paid by PIX.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      // The contract names no support desk: integrators are pointed at the served reference and its guides.
      contact: { name: 'API reference and integration guides', url: `${publicUrl}/docs/` },
    },
    // Integrators' api (Spectral OWASP api9: every server states its audience).
    servers: [{ url: '/', 'x-internal': false }],
    tags: TAGS,
    paths: answered,
    components: { ...base, headers: { ...base.headers, ...pipelineHeaders }, schemas: Object.assign({ ...base.schemas }, ...PARTS.map((part) => part.schemas ?? {})) },
  });
  // The payloads we send keep their shapes as released: oasdiff compares a `webhooks` body as a
  // request and offers no way to accept a bound found there.
  return { ...document, webhooks: webhookEvents };
}
