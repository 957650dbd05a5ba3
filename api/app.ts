import express, { Express, Router } from 'express';
import type { Knex } from 'knex';
import type { Config } from '../platform/config/config';
import type { Logger } from '../platform/logger';
import type { AuthService } from './auth/auth-service';
import type { KeyRing } from './auth/keys';
import type { ReferenceCache } from './cache/reference-cache';
import type { DependencyProbe } from './platform/dependency-probe';
import type { HealthMonitor } from './platform/health-monitor';
import type { TemporalHandle } from './temporal/client';
import { buildDocument } from './document/document';
import { RouteTable } from './openapi/route-table';
import { requestContext } from './middleware/request-context';
import { databaseBudget } from './middleware/database-budget';
import { requestLog } from './middleware/request-log';
import { httpMetrics } from './middleware/http-metrics';
import { serverSpan } from './middleware/server-span';
import type { TracingSdk } from '../platform/telemetry/tracing';
import { jsonBody } from './middleware/json-body';
import { inputGuard } from './middleware/input-guard';
import { parseQueryOnce } from './middleware/parsed-query';
import { resolveRoute } from './middleware/resolve-route';
import { authenticate, requireScopes } from './middleware/authenticate';
import { openapiValidation } from './middleware/openapi-validation';
import { mapValidatorErrors } from './middleware/validator-errors';
import { errorHandler, lastResortJson } from './middleware/error-handler';
import { perIdentityRateLimit, perIpRateLimit, perTokenRateLimit } from './middleware/rate-limit';
import { idempotency } from './middleware/idempotency';
import { providerSignature } from './middleware/provider-signature';
import { noStoreForSecrets, securityHeaders } from './middleware/security-headers';
import { platformRoutes } from './platform/routes';
import { authRoutes } from './auth/routes';
import { AuditTrail } from './audit/audit-trail';
import { auditRoutes } from './audit/routes';
import { checkpointRoutes } from './audit/checkpoint-routes';
import { auditRefusals } from './audit/refusals';
import { staffRoutes } from './staff/routes';
import { StaffService } from './staff/staff-service';
import { webhookRoutes } from './webhooks/routes';
import { eventRoutes } from './events/routes';
import { testClockRoutes } from './test-clocks/routes';
import type { HostResolver } from '../domain/url-guard';
import { systemResolver } from '../providers/webhooks-http';
import { mailSender } from '../providers/mail';
import { assignorRoutes } from './assignors/routes';
import { operationRoutes } from './operations/routes';
import { contractRoutes } from './operations/contract-routes';
import { backofficeRoutes } from './backoffice/routes';
import { providerCallbackRoutes } from './provider-callbacks/routes';
import { EsignProvider, HttpEsignProvider } from '../providers/esign-client';
import { productRoutes } from './products/routes';
import { simulationRoutes } from './simulation/routes';
import { stockRoutes } from './stock/routes';
import { assignorPayableRoutes } from './payables/routes';
import { discountCreditRoutes } from './payables/credit-routes';
import { ledgerRoutes } from './ledger/routes';
import { LedgerTransactionCache } from './ledger/transaction-cache';
import { ledgerBackofficeRoutes } from './ledger/backoffice-routes';
import { ledgerSandboxRoutes } from './ledger/sandbox-routes';
import { statementSources } from '../activities/ledger-reconciliation';
import { titleRoutes } from './titles/routes';
import { collectionRoutes } from './collection/routes';
import { sefazRoutes } from './sefaz/routes';
import { sefazAtCreation } from '../providers/sefaz/client';
import { HttpEscriturador } from '../providers/escriturador/client';
import { registrarRoutes } from './registrar/routes';
import { CODEC_PATH, codecCors, codecRoutes } from './backoffice/codec-routes';
import { EncryptionCodec } from '../platform/crypto/payload-codec';
import { CipherRing } from '../platform/crypto/cipher-ring';
import { TrustedRoots } from '../platform/crypto/certificate-chain';
import { webPageRoutes } from './backoffice/web-pages';
import { systemRoutes } from './backoffice/system-routes';
import { pipeline, routerDispatch } from './http/pipeline';

/** Express matches paths without regard to case, so the pages' prefixes are matched so too. */
const PAGE_PATHS = /^\/(?:backoffice|docs)(?:\/|$)/i;

export interface AppDeps {
  config: Config;
  db: Knex;
  temporal: TemporalHandle;
  keys: KeyRing;
  auth: AuthService;
  cache: ReferenceCache;
  probe: DependencyProbe;
  health: HealthMonitor;
  logger: Logger;
  startedAt?: number;
  /** The clock of rate-limit windows and idempotency expiry; tests move it. */
  now?: () => Date;
  /** The e-sign provider the signers route reads; by default the one configured. */
  esign?: EsignProvider;
  /** Webhook hosts to addresses for the URL guard: the system's DNS unless a test gives a fixed table. */
  resolveHost?: HostResolver;
  /** The tracing SDK the requests' server spans are recorded to; absent with tracing off. */
  spans?: TracingSdk | null;
}

/**
 * The api: the pipeline of DESIGN.md §9 in order, then the routers, then the one error mapper.
 */
export function createApp(deps: AppDeps): Express {
  const { config, db, logger } = deps;
  const document = buildDocument(config.http.publicUrl, config.serviceEnv);
  const routes = new RouteTable(document);
  const app = express();
  app.set('trust proxy', config.http.trustProxy);
  app.disable('x-powered-by');
  app.disable('etag');

  const now = deps.now ?? (() => new Date());
  const limits = { db, config: config.rateLimit, now };

  // With tracing on, the request's span comes first: the request's ids and every later step are inside it.
  const traced = deps.spans ? [serverSpan(deps.spans)] : [];
  app.use(pipeline([...traced, requestContext(config, db, logger), databaseBudget(config.db.failFastMs), securityHeaders(config.http), requestLog(logger), httpMetrics()]));
  app.use(CODEC_PATH, codecCors(config.codec.corsOrigins, config.temporal.namespace, new URL(config.http.publicUrl).origin));
  // The console and the docs are pages, not API routes: they answer before the API's pipeline.
  // Every path they serve is under /backoffice or /docs; no other request walks their router.
  const pages = webPageRoutes();
  const lookups = {
    sefaz: { port: sefazAtCreation(config.sefaz), budgetMs: config.sefaz.creationBudgetMs },
    registrar: { port: new HttpEscriturador(config.registrar), budgetMs: config.registrar.creationBudgetMs },
  };
  const ring = new CipherRing(config.payloadKeys);
  const nfeXml = { roots: new TrustedRoots(config.nfeXml.trustedRoots), ring };
  app.use((req, res, next) => (PAGE_PATHS.test(req.path) ? pages(req, res, next) : next()));
  const esign = deps.esign ?? new HttpEsignProvider(config.providers.esignUrl, config.providers.timeoutMs);
  const audit = new AuditTrail(db);
  const routers: Router[] = [
    platformRoutes({ config, probe: deps.probe, health: deps.health, keys: deps.keys, document, startedAt: deps.startedAt ?? Date.now() }),
    authRoutes(deps.auth, audit),
    webhookRoutes({ config, temporal: deps.temporal, resolveHost: deps.resolveHost ?? systemResolver, now }),
    assignorRoutes({ ring, now }),
    productRoutes(deps.cache),
    simulationRoutes(now, deps.cache),
    operationRoutes({ db, temporal: deps.temporal, config, now, cache: deps.cache, lookups, nfeXml }),
    stockRoutes({ db, temporal: deps.temporal, config, now, lookups, nfeXml }),
    contractRoutes({ db, temporal: deps.temporal, esign }),
    backofficeRoutes({ db, temporal: deps.temporal, config, esign, now }),
    auditRoutes(db),
    checkpointRoutes({ db, cipher: new CipherRing(config.payloadKeys), checkpointLog: config.audit.checkpointLog }),
    staffRoutes({ service: new StaffService(config, mailSender(config.mail, config.providers.timeoutMs), logger), audit, now }),
    systemRoutes(new Date(deps.startedAt ?? Date.now())),
    providerCallbackRoutes({ db, temporal: deps.temporal }),
    titleRoutes({ temporal: deps.temporal, config }),
    eventRoutes(now, deps.cache),
    testClockRoutes({ db, temporal: deps.temporal, config, now }),
    collectionRoutes({ db, temporal: deps.temporal, config, now, logger }),
    sefazRoutes({ config }),
    registrarRoutes({ db, temporal: deps.temporal, config, logger, audit, now }),
    assignorPayableRoutes(),
    discountCreditRoutes(),
    ledgerRoutes(new LedgerTransactionCache(config.ledgerTransactionCache.maxBytes)),
    ledgerSandboxRoutes({ config }),
    ledgerBackofficeRoutes({ sources: statementSources(config), audit, now }),
    codecRoutes(new EncryptionCodec(new CipherRing(config.payloadKeys)), audit, {
      maxAgeSeconds: config.jwt.tokenTtlSeconds, secure: config.http.publicUrl.startsWith('https:'),
    }),
  ];
  app.use(pipeline([
    // The route decides the per-IP budget (login, token exchange, exempt), so it is resolved first.
    resolveRoute(routes),
    noStoreForSecrets(),
    perIpRateLimit(limits),
    ...providerSignature(config.callbacks, { collection: config.collection.callbackSecret, registrar: config.registrar.callbackSecret }, config.http.bodyLimit, () => Math.floor(now().getTime() / 1000)),
    ...jsonBody(config.http.bodyLimit),
    parseQueryOnce(),
    inputGuard(),
    perIdentityRateLimit(limits, deps.auth),
    authenticate(deps.auth),
    perTokenRateLimit(limits),
    requireScopes(),
    idempotency({ db, settings: config.idempotency, logger, now }),
    ...openapiValidation(document, config.openapi.validateResponses),
    routerDispatch(routers),
  ]));

  app.use(mapValidatorErrors);
  app.use(errorHandler(logger, auditRefusals(audit, logger)));
  app.use(lastResortJson(logger));
  return app;
}
