import express, { Express, Router } from 'express';
import type { Knex } from 'knex';
import type { Config } from './config';
import type { Logger } from './logger';
import type { AuthService } from './auth/auth-service';
import type { KeyRing } from './auth/keys';
import type { DependencyProbe } from './dependency-probe';
import type { TemporalHandle } from './temporal-client';
import { buildDocument } from './openapi/document';
import { RouteTable } from './openapi/route-table';
import { requestContext } from './middleware/request-context';
import { requestLog } from './middleware/request-log';
import { jsonBody } from './middleware/json-body';
import { resolveRoute } from './middleware/resolve-route';
import { authenticate, requireScopes } from './middleware/authenticate';
import { mapValidatorErrors, openapiValidation } from './middleware/openapi-validation';
import { errorHandler } from './middleware/error-handler';
import { platformRoutes } from './routes/platform';
import { authRoutes } from './routes/auth';
import { assignorRoutes } from './routes/assignors';

export interface AppDeps {
  config: Config;
  db: Knex;
  temporal: TemporalHandle;
  keys: KeyRing;
  auth: AuthService;
  probe: DependencyProbe;
  logger: Logger;
  startedAt?: number;
}

/**
 * The api: the pipeline of DESIGN.md §9 in order, then the routers, then the one error mapper.
 */
export function createApp(deps: AppDeps): Express {
  const { config, db, logger } = deps;
  const document = buildDocument(config.http.publicUrl);
  const routes = new RouteTable(document as never);
  const app = express();
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  app.disable('etag');

  app.use(requestContext(config, db, logger));
  app.use(requestLog(logger));
  app.use(...jsonBody(config.http.bodyLimit));
  app.use(resolveRoute(routes));
  app.use(authenticate(deps.auth));
  app.use(requireScopes());
  app.use(...openapiValidation(document, config.openapi.validateResponses));

  const routers: Router[] = [
    platformRoutes({ config, probe: deps.probe, keys: deps.keys, document, startedAt: deps.startedAt ?? Date.now() }),
    authRoutes(deps.auth),
    assignorRoutes(),
  ];
  app.use(...routers);

  app.use(mapValidatorErrors);
  app.use(errorHandler(logger));
  return app;
}
