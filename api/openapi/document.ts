import { components } from './components';
import type { ServiceEnv } from '../config';
import { authPaths } from './paths/auth';
import { platformPaths } from './paths/platform';
import { assignorPaths, assignorSchemas } from './paths/assignors';
import { simulationPaths, simulationSchemas } from './paths/simulation';
import { productPaths, productSchemas } from './paths/products';
import { webhookPaths, webhookSchemas } from './paths/webhooks';
import { webhookEvents } from './webhook-events';
import { operationPaths, operationSchemas } from './paths/operations';
import { lifecyclePaths, lifecycleSchemas } from './paths/lifecycle';
import { stockPaths, stockSchemas } from './paths/stock';
import { payablePaths, payableSchemas } from './paths/payables';
import { creditPaths, creditSchemas } from './paths/credits';
import { titlePaymentPaths, titlePaymentSchemas } from './paths/title-payments';
import { codecPaths, codecSchemas } from './paths/codec';
import { backofficePaths, backofficeSchemas } from './paths/backoffice';

interface Section {
  tag: string;
  paths: Record<string, unknown>;
  schemas?: Record<string, unknown>;
}

/** One entry per area of the API: its tag, its paths and the schemas they reference. */
const SECTIONS: Section[] = [
  { tag: 'platform', paths: platformPaths },
  { tag: 'auth', paths: authPaths },
  { tag: 'assignors', paths: assignorPaths, schemas: assignorSchemas },
  { tag: 'products', paths: productPaths, schemas: productSchemas },
  { tag: 'simulation', paths: simulationPaths, schemas: simulationSchemas },
  { tag: 'operations', paths: operationPaths, schemas: operationSchemas },
  { tag: 'stock', paths: stockPaths, schemas: stockSchemas },
  { tag: 'contracts', paths: lifecyclePaths, schemas: lifecycleSchemas },
  { tag: 'titles', paths: titlePaymentPaths, schemas: titlePaymentSchemas },
  { tag: 'assignor-payables', paths: payablePaths, schemas: payableSchemas },
  { tag: 'discount-credits', paths: creditPaths, schemas: creditSchemas },
  { tag: 'webhooks', paths: webhookPaths, schemas: webhookSchemas },
  { tag: 'codec', paths: codecPaths, schemas: codecSchemas },
  { tag: 'backoffice', paths: backofficePaths, schemas: backofficeSchemas },
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
    },
    servers: [{ url: '/' }],
    tags: SECTIONS.map((section) => ({ name: section.tag })),
    paths,
    components: { ...base, schemas: Object.assign({ ...base.schemas }, ...SECTIONS.map((section) => section.schemas ?? {})) },
    webhooks: webhookEvents,
  };
}
