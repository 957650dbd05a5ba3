import { components } from './components';
import { authPaths } from './paths/auth';
import { platformPaths } from './paths/platform';

/**
 * The OpenAPI 3.1 document: the single source of request shapes, route security and the
 * statuses each route can answer. Served live at `GET /v1/openapi.json`.
 */
export function buildDocument(publicUrl: string): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Receivables Anticipation API',
      version: '1.6.0',
      description: 'Multi-tenant API with which originators anticipate receivables owed to their assignors, paid by PIX.',
    },
    servers: [{ url: '/' }],
    tags: [{ name: 'platform' }, { name: 'auth' }],
    paths: { ...platformPaths, ...authPaths },
    components: components(publicUrl),
    webhooks: {},
  };
}
