import { components } from './components';
import type { ServiceEnv } from '../../db/config';
import { authPaths } from '../auth/openapi';
import { platformPaths } from '../platform/openapi';
import { assignorPaths, assignorSchemas } from '../assignors/openapi';
import { simulationPaths, simulationSchemas } from '../simulation/openapi';
import { productPaths, productSchemas } from '../products/openapi';
import { webhookPaths, webhookSchemas } from '../webhooks/openapi';
import { webhookEvents } from '../webhooks/event-openapi';
import { operationPaths, operationSchemas } from '../operations/openapi';
import { lifecyclePaths, lifecycleSchemas } from '../operations/contract-openapi';
import { stockPaths, stockSchemas } from '../stock/openapi';
import { payablePaths, payableSchemas } from '../payables/openapi';
import { creditPaths, creditSchemas } from '../payables/credit-openapi';
import { titlePaymentPaths, titlePaymentSchemas } from '../titles/openapi';
import { codecPaths, codecSchemas } from '../backoffice/codec-openapi';
import { backofficePaths, backofficeSchemas } from '../backoffice/openapi';

interface Section {
  tag: string;
  description: string;
  paths: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

/** One entry per area of the API: its tag, its paths and the schemas they reference. */
const SECTIONS: Section[] = [
  { tag: 'platform', description: 'Health, the integration flow, this document and its frozen releases', paths: platformPaths },
  { tag: 'auth', description: 'Tokens for integrations (client credentials) and users (login), and the keys that verify them', paths: authPaths },
  { tag: 'assignors', description: 'The businesses (cedentes) whose receivables an originator anticipates', paths: assignorPaths, schemas: assignorSchemas },
  { tag: 'products', description: 'The catalogue of products: rates, terms and value ranges', paths: productPaths, schemas: productSchemas },
  { tag: 'simulation', description: 'Pricing of receivables without creating anything', paths: simulationPaths, schemas: simulationSchemas },
  { tag: 'operations', description: 'Anticipation operations: creation in one call, reads and cancellation', paths: operationPaths, schemas: operationSchemas },
  { tag: 'stock', description: 'Receivables registered ahead of time and anticipated later', paths: stockPaths, schemas: stockSchemas },
  { tag: 'contracts', description: 'The assignment contract of an operation and its e-signature', paths: lifecyclePaths, schemas: lifecycleSchemas },
  { tag: 'titles', description: 'The receivables of an operation after disbursement and their payers\' payments', paths: titlePaymentPaths, schemas: titlePaymentSchemas },
  { tag: 'assignor-payables', description: 'What an assignor owes the originator, its payments and write-offs', paths: payablePaths, schemas: payableSchemas },
  { tag: 'discount-credits', description: 'Credits that reduce what an assignor owes', paths: creditPaths, schemas: creditSchemas },
  { tag: 'webhooks', description: 'Subscriptions to events, their deliveries and signing secrets', paths: webhookPaths, schemas: webhookSchemas },
  { tag: 'codec', description: 'Temporal Web\'s remote payload codec, for operators (decodes encrypted workflow payloads)', paths: codecPaths, schemas: codecSchemas },
  { tag: 'backoffice', description: 'Staff routes across originators: the approval queue, decisions, the operation page and stuck operations (user tokens)', paths: backofficePaths, schemas: backofficeSchemas },
];

/** Tags of operations that live in another area's paths file. */
const EXTRA_TAGS = [
  { name: 'internal', description: 'Callbacks from the e-signature and PIX providers; not for integrators' },
];

/**
 * The OpenAPI 3.1 document: the single source of request shapes, route security and the
 * statuses each route can answer. Served live at `GET /v1/openapi.json`.
 */
export function buildDocument(publicUrl: string, serviceEnv: ServiceEnv): Record<string, unknown> {
  const base = components(publicUrl);
  const paths: Record<string, unknown> = Object.assign({}, ...SECTIONS.map((section) => section.paths));
  // Production has no simulated counterparts: their routes are absent, so they are also 404.
  if (serviceEnv === 'prod') for (const path of Object.keys(paths)) if (path.startsWith('/v1/sandbox/')) delete paths[path];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Receivables Anticipation API',
      version: '1.6.0',
      description: 'Multi-tenant API with which originators anticipate receivables owed to their assignors, paid by PIX.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/' }],
    tags: [...SECTIONS.map((section) => ({ name: section.tag, description: section.description })), ...EXTRA_TAGS],
    paths,
    components: { ...base, schemas: Object.assign({ ...base.schemas }, ...SECTIONS.map((section) => section.schemas ?? {})) },
    webhooks: webhookEvents,
  };
}
