/**
 * The one typed configuration object. It is read from the environment once, at start-up, by the
 * process entry points (api server, worker, dev and test orchestration); nothing else reads
 * `process.env`. Shared by the api and the worker, so it lives in `db/`, the folder both processes own.
 */
import { CipherKey, CipherKeyError, parseCipherKeys } from '../crypto/cipher-ring';
import { LEAST_LOG2N, PASSWORD_LOG2N } from '../crypto/passwords';
import { checkDeployment, DEV_CHECKPOINT_LOG, UnsafeSetting } from './checks';
import { parseTrustProxy, TrustProxy, TrustProxyError } from '../../domain/client-address';
import { DEFAULT_TASK_QUEUE } from '../../domain/workflow-ids';
import type { SamplingSettings, TracingSettings } from '../telemetry/tracing';
import { ClientTls, clientTls, TlsSettingError } from './tls';
import { parseAuthorizers, sandboxAuthorizers, SefazSettingError, SefazSettings } from './sefaz';
import { NfeXmlSettingError, nfeXmlSettings, NfeXmlSettings } from './nfe-xml';

export type ServiceEnv = 'prod' | 'sandbox' | 'dev';

/** The sandbox collection PSP's OAuth2 client (sandbox/api-pix): the defaults outside production. */
export const SANDBOX_COLLECTION_CLIENT = { clientId: 'sandbox-collection-client', clientSecret: 'sandbox-collection-secret' };

/** The sandbox escriturador's API key (sandbox/escriturador): the default outside production. */
export const SANDBOX_REGISTRAR_API_KEY = 'sandbox-registrar-key';

export interface Config {
  serviceEnv: ServiceEnv;
  apiVersion: string;
  /** HSTS is sent only when the service is reached over TLS (behind a proxy that terminates it): `hstsMaxAgeSeconds` > 0. */
  http: { host: string; port: number; trustProxy: TrustProxy; bodyLimit: string; publicUrl: string; hstsMaxAgeSeconds: number };
  databaseUrl: string;
  /** failFastMs: what one api request may wait on Postgres in all, connecting, pool acquires and queries together (a frozen Postgres answers 503, not never). */
  db: { poolMax: number; failFastMs: number };
  /** updateDeadlineMs: how long an api route waits on an update before 503 `workflow_unavailable` (api/temporal/workflow-calls.ts says why 20 s). */
  temporal: { address: string; namespace: string; taskQueue: string; webUrl: string | null; updateDeadlineMs: number };
  jwt: { privateKeyPem: string | null; tokenTtlSeconds: number; audience: string; keyReloadIntervalMs: number };
  /** The ring that seals Temporal payloads and webhook secrets; the first key seals, every key opens. */
  payloadKeys: CipherKey[];
  /** Temporal Web origins allowed to call the codec endpoint (CORS). */
  codec: { corsOrigins: string[] };
  /** Provider callbacks: per-provider HMAC secrets and the accepted age of their timestamp. */
  callbacks: { esignSecret: string; pixSecret: string; toleranceSeconds: number };
  /** hashConcurrency / hashQueue: password hashes running at once per api process, and logins allowed to wait for one. */
  login: { maxFailures: number; lockMinutes: number; hashConcurrency: number; hashQueue: number };
  /** scrypt cost of user passwords, as log2(N); 17 is OWASP's, and prod refuses less. */
  passwords: { scryptLog2N: number };
  /** `enabled: false` exists for local load tests (bench/ measures the limiter's cost); refused in prod. */
  rateLimit: {
    enabled: boolean; perTokenRpm: number; perIpRpm: number; loginRpm: number; tokenRpm: number; callbackRpm: number;
    /** Login attempts per e-mail and address per hour. */
    loginAccountPerHour: number;
    /** Login attempts per e-mail per hour from addresses it has not signed in from lately, all together. */
    loginAccountCeilingPerHour: number;
    /** `/v1/health` per address per minute, counted by each api process. */
    healthRpm: number;
  };
  idempotency: { waitMs: number; reservationCeilingSeconds: number; ttlHours: number };
  /** How often each api process deletes expired idempotency records and idle rate-limit windows. */
  purge: { intervalMs: number };
  /** Per-process caches of credentials, users, policies, fee defaults and products: a backstop lifetime beside LISTEN/NOTIFY. */
  referenceCache: { ttlMs: number };
  /** Bytes of posted ledger transactions' renderings each api process keeps (least recently used dropped first); 0 keeps none. */
  ledgerTransactionCache: { maxBytes: number };
  providers: { esignUrl: string; pixUrl: string; timeoutMs: number };
  /** Staff e-mail (enrolment tokens): an SMTP relay (`smtpUrl`, required in prod), else the sandbox's mailbox at `sandboxUrl`. */
  mail: { smtpUrl: string | null; from: string; sandboxUrl: string };
  /** `disableAfterMs`: an endpoint whose every delivery failed for this long is disabled (5 days). */
  webhooks: { allowPrivateHosts: boolean; extraCaPem: string | null; timeoutMs: number; retryScheduleMs: number[]; disableAfterMs: number };
  titles: { graceDaysOverride: number | null };
  /**
   * The audit chain's signed checkpoints: `checkpointLog` is the append-only file outside
   * Postgres each checkpoint is also written to (a mounted volume whose writers are not the database's
   * administrators); production refuses the development default, `.data/audit-checkpoints.jsonl`.
   */
  audit: { checkpointLog: string };
  /**
   * Collecting titles by PIX: the originators' collection PSP through API Pix, its OAuth2
   * client, and the secret its webhooks are signed with; `callbackSecret` null turns collection off
   * (no charge is issued and the webhook route refuses every call). `tls`: mutual TLS with the PSP
   * (API Pix requires it of every PSP's clients), for the token and the API alike.
   */
  collection: { apiUrl: string; tokenUrl: string; clientId: string; clientSecret: string; callbackSecret: string | null; sweepWindowHours: number; tls: ClientTls | null };
  /**
   * The escriturador of duplicatas escriturais: its API (the sandbox's controls under it outside
   * production), the API key sent as a bearer, and the secret its webhooks are signed with (null:
   * its webhooks are refused). Which escriturador, holder and negotiation type each originator
   * uses are the originator's data (domain/escriturador/negotiation.ts), not configuration.
   */
  registrar: { url: string; apiKey: string; callbackSecret: string | null; timeoutMs: number; creationBudgetMs: number };
  outbox: { relayIntervalMs: number; relayAfterMs: number };
  /** Checking NF-e at SEFAZ (platform/config/sefaz.ts); `tls` is the platform's ICP-Brasil A1 certificate. */
  sefaz: SefazSettings;
  /** Proving an NF-e by its signed XML (platform/config/nfe-xml.ts). */
  nfeXml: NfeXmlSettings;
  openapi: { validateResponses: boolean };
  /** The loopback listener of `GET /metrics`; `port` null takes the process kind's default (DEFAULT_METRICS_PORTS), 0 a free port. */
  metrics: { host: string; port: number | null };
  /** OpenTelemetry traces, by OTLP/HTTP to `tracesUrl` (the standard OTEL_EXPORTER_OTLP_* variables); null: tracing off. */
  tracing: TracingSettings;
  logLevel: string;
}

/** Where each process kind serves its metrics when METRICS_PORT is not set: OpenTelemetry's Prometheus exporter port, and the next. */
export const DEFAULT_METRICS_PORTS = { api: 9464, worker: 9465 } as const;

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

const HOUR = 3_600_000;
/** DESIGN.md §10: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const DEFAULT_WEBHOOK_SCHEDULE_MS = [0, 5_000, 300_000, 1_800_000, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];

function str(env: Env, name: string, fallback?: string): string {
  const value = env[name];
  if (value !== undefined && value !== '') return value;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`${name} is required`);
}

function optional(env: Env, name: string): string | null {
  const value = env[name];
  return value === undefined || value === '' ? null : value;
}

function int(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min) throw new ConfigError(`${name} must be an integer >= ${min}, got "${raw}"`);
  return Number(raw);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function intList(env: Env, name: string, fallback: number[]): number[] {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const values = raw.split(',').map((part) => part.trim());
  if (values.length === 0 || values.some((v) => !/^\d+$/.test(v))) throw new ConfigError(`${name} must be a comma-separated list of milliseconds`);
  return values.map(Number);
}

function cipherKeys(env: Env, name: string): CipherKey[] {
  try {
    return parseCipherKeys(str(env, name));
  } catch (err) {
    if (err instanceof CipherKeyError) throw new ConfigError(`${name}: ${err.message}`);
    throw err;
  }
}

function tlsSettings(env: Env, prefix: string): ClientTls | null {
  try {
    return clientTls(env, prefix);
  } catch (err) {
    if (err instanceof TlsSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

function sefazSettings(env: Env, svcEnv: ServiceEnv): SefazSettings {
  const sandboxUrl = str(env, 'SEFAZ_SANDBOX_URL', 'http://127.0.0.1:8100/sefaz');
  // Production names its authorizers (checks.ts refuses to start without them); anywhere else the sandbox answers for every state.
  const authorizers = optional(env, 'SEFAZ_AUTHORIZERS') ?? (svcEnv === 'prod' ? null : sandboxAuthorizers(sandboxUrl));
  try {
    return {
      environment: sefazEnvironment(str(env, 'SEFAZ_ENVIRONMENT', svcEnv === 'prod' ? 'production' : 'homologation')),
      authorizers: authorizers === null ? {} : parseAuthorizers(authorizers, 'SEFAZ_AUTHORIZERS'),
      distributionUrl: str(env, 'SEFAZ_DISTRIBUTION_URL', svcEnv === 'prod' ? '' : `${sandboxUrl}/NFeDistribuicaoDFe`),
      tls: tlsSettings(env, 'SEFAZ'),
      timeoutMs: int(env, 'SEFAZ_TIMEOUT_MS', 5_000, 1),
      attempts: int(env, 'SEFAZ_ATTEMPTS', 3, 1),
      creationBudgetMs: int(env, 'SEFAZ_CREATION_BUDGET_MS', 800, 1),
      backoffMs: int(env, 'SEFAZ_BACKOFF_MS', 500, 0),
      perKeyPerHour: int(env, 'SEFAZ_KEY_REQUESTS_PER_HOUR', 6, 1),
      throttleMs: int(env, 'SEFAZ_THROTTLE_SECONDS', 3_600, 1) * 1000,
      sandboxUrl,
    };
  } catch (err) {
    if (err instanceof SefazSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

function nfeXml(env: Env): NfeXmlSettings {
  try {
    return nfeXmlSettings(env);
  } catch (err) {
    if (err instanceof NfeXmlSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

/** SEFAZ's `tpAmb`: 1 production, 2 homologation. */
function sefazEnvironment(raw: string): '1' | '2' {
  if (raw === 'production') return '1';
  if (raw === 'homologation') return '2';
  throw new ConfigError(`SEFAZ_ENVIRONMENT must be production or homologation, got "${raw}"`);
}

function origins(env: Env, name: string, fallbackUrl: string | null): string[] {
  const raw = optional(env, name);
  const listed = raw === null ? (fallbackUrl ? [fallbackUrl] : []) : raw.split(',').map((v) => v.trim()).filter(Boolean);
  return listed.map((value) => {
    try {
      return new URL(value).origin;
    } catch {
      throw new ConfigError(`${name} must be a comma-separated list of origins, got "${value}"`);
    }
  });
}

function secret(env: Env, name: string): string {
  const value = str(env, name);
  if (value.length < 16) throw new ConfigError(`${name} must be at least 16 characters`);
  return value;
}

function trustProxy(env: Env): TrustProxy {
  try {
    return parseTrustProxy(optional(env, 'TRUST_PROXY'));
  } catch (err) {
    if (err instanceof TrustProxyError) throw new ConfigError(`TRUST_PROXY: ${err.message}`);
    throw err;
  }
}

function serviceEnv(env: Env): ServiceEnv {
  // No default: a deployment that forgets it must not start as dev.
  const value = str(env, 'SERVICE_ENV');
  if (value !== 'prod' && value !== 'sandbox' && value !== 'dev') throw new ConfigError(`SERVICE_ENV must be prod, sandbox or dev, got "${value}"`);
  return value;
}

/**
 * OpenTelemetry's own variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is the traces URL as it is,
 * OTEL_EXPORTER_OTLP_ENDPOINT a base to which `/v1/traces` is added; OTEL_SDK_DISABLED=true turns
 * tracing off whatever they say. Shared by the sandbox, whose spans belong to the same traces.
 */
export function tracingSettings(env: Env): TracingSettings {
  const url = (name: string) => {
    const value = optional(env, name);
    if (value === null) return null;
    try {
      return new URL(value).toString().replace(/\/$/, '');
    } catch {
      throw new ConfigError(`${name} must be a URL, got "${value}"`);
    }
  };
  const base = url('OTEL_EXPORTER_OTLP_ENDPOINT');
  const tracesUrl = bool(env, 'OTEL_SDK_DISABLED', false) ? null : url('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT') ?? (base && `${base}/v1/traces`);
  return { tracesUrl, serviceName: optional(env, 'OTEL_SERVICE_NAME'), sampling: sampling(env) };
}

const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'];

/**
 * OTEL_TRACES_SAMPLER as OpenTelemetry defines it, default `parentbased_always_on` (every request
 * recorded); OTEL_TRACES_SAMPLER_ARG is the ratio of the `traceidratio` ones, default 1. The SDK
 * would fall back to its default on a value it does not know; here a misspelt sampler stops the start.
 */
function sampling(env: Env): SamplingSettings {
  const name = optional(env, 'OTEL_TRACES_SAMPLER') ?? 'parentbased_always_on';
  if (!SAMPLERS.includes(name)) throw new ConfigError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(', ')}, got "${name}"`);
  const arg = optional(env, 'OTEL_TRACES_SAMPLER_ARG');
  const ratio = name.endsWith('traceidratio') && arg !== null ? Number(arg) : 1;
  if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${arg}"`);
  return { parentBased: name.startsWith('parentbased_'), ratio: name.endsWith('always_off') ? 0 : ratio };
}

export function loadConfig(env: Env = process.env): Config {
  const svcEnv = serviceEnv(env);
  const port = int(env, 'PORT', 8000);
  const config: Config = {
    serviceEnv: svcEnv,
    apiVersion: '1.7.0',
    http: {
      host: str(env, 'HOST', '127.0.0.1'),
      port,
      trustProxy: trustProxy(env),
      bodyLimit: str(env, 'BODY_LIMIT', '1mb'),
      publicUrl: str(env, 'PUBLIC_URL', `http://127.0.0.1:${port}`),
      hstsMaxAgeSeconds: int(env, 'HSTS_MAX_AGE_SECONDS', 0),
    },
    databaseUrl: str(env, 'DATABASE_URL'),
    db: { poolMax: int(env, 'DB_POOL_MAX', 40, 2), failFastMs: int(env, 'DB_FAIL_FAST_MS', 1_500, 100) },
    temporal: {
      address: str(env, 'TEMPORAL_ADDRESS', '127.0.0.1:7233'),
      namespace: str(env, 'TEMPORAL_NAMESPACE', 'default'),
      taskQueue: str(env, 'TEMPORAL_TASK_QUEUE', DEFAULT_TASK_QUEUE),
      webUrl: optional(env, 'TEMPORAL_WEB_URL'),
      updateDeadlineMs: int(env, 'TEMPORAL_UPDATE_DEADLINE_MS', 20_000, 1_000),
    },
    jwt: {
      privateKeyPem: optional(env, 'JWT_PRIVATE_KEY'),
      tokenTtlSeconds: int(env, 'TOKEN_TTL_SECONDS', 900, 1),
      audience: str(env, 'JWT_AUDIENCE', 'receivables-anticipation-api'),
      keyReloadIntervalMs: int(env, 'JWT_KEY_RELOAD_INTERVAL_MS', 60_000, 0),
    },
    payloadKeys: cipherKeys(env, 'PAYLOAD_KEYS'),
    codec: { corsOrigins: origins(env, 'CODEC_CORS_ORIGINS', optional(env, 'TEMPORAL_WEB_URL')) },
    callbacks: {
      esignSecret: secret(env, 'ESIGN_CALLBACK_SECRET'),
      pixSecret: secret(env, 'PIX_CALLBACK_SECRET'),
      toleranceSeconds: int(env, 'CALLBACK_TOLERANCE_SECONDS', 300, 1),
    },
    login: {
      maxFailures: int(env, 'LOGIN_MAX_FAILURES', 5, 1),
      lockMinutes: int(env, 'LOGIN_LOCK_MINUTES', 30, 1),
      hashConcurrency: int(env, 'LOGIN_HASH_CONCURRENCY', 2, 1),
      hashQueue: int(env, 'LOGIN_HASH_QUEUE', 32, 0),
    },
    passwords: { scryptLog2N: Math.min(20, int(env, 'PASSWORD_SCRYPT_LOG2N', PASSWORD_LOG2N, LEAST_LOG2N)) },
    rateLimit: {
      enabled: bool(env, 'RATE_LIMIT_ENABLED', true),
      perTokenRpm: int(env, 'RATE_LIMIT_TOKEN_RPM', 120, 1),
      perIpRpm: int(env, 'RATE_LIMIT_IP_RPM', 120, 1),
      loginRpm: int(env, 'RATE_LIMIT_LOGIN_RPM', 10, 1),
      tokenRpm: int(env, 'RATE_LIMIT_AUTH_TOKEN_RPM', 30, 1),
      callbackRpm: int(env, 'RATE_LIMIT_CALLBACK_RPM', 600, 1),
      loginAccountPerHour: int(env, 'RATE_LIMIT_LOGIN_ACCOUNT_PER_HOUR', 20, 1),
      loginAccountCeilingPerHour: int(env, 'RATE_LIMIT_LOGIN_ACCOUNT_CEILING_PER_HOUR', 200, 1),
      healthRpm: int(env, 'RATE_LIMIT_HEALTH_RPM', 120, 1),
    },
    idempotency: {
      // At least 1 ms: the wait is a Postgres lock_timeout, where 0 would mean waiting forever.
      waitMs: int(env, 'IDEMPOTENCY_WAIT_MS', 10_000, 1),
      reservationCeilingSeconds: Math.min(600, int(env, 'IDEMPOTENCY_RESERVATION_SECONDS', 600, 1)),
      ttlHours: int(env, 'IDEMPOTENCY_TTL_HOURS', 24, 1),
    },
    purge: { intervalMs: int(env, 'PURGE_INTERVAL_MS', 60_000, 10) },
    referenceCache: { ttlMs: int(env, 'REFERENCE_CACHE_TTL_SECONDS', 60, 1) * 1000 },
    ledgerTransactionCache: { maxBytes: int(env, 'LEDGER_TRANSACTION_CACHE_BYTES', 32_000_000, 0) },
    providers: {
      esignUrl: str(env, 'ESIGN_URL', 'http://127.0.0.1:8100/esign'),
      pixUrl: str(env, 'PIX_URL', 'http://127.0.0.1:8100/pix'),
      timeoutMs: int(env, 'PROVIDER_TIMEOUT_MS', 10_000, 1),
    },
    mail: {
      smtpUrl: optional(env, 'MAIL_SMTP_URL'),
      from: str(env, 'MAIL_FROM', 'Receivables Backoffice <backoffice@receivables.example>'),
      sandboxUrl: str(env, 'MAIL_SANDBOX_URL', 'http://127.0.0.1:8100/mail'),
    },
    webhooks: {
      allowPrivateHosts: bool(env, 'WEBHOOKS_ALLOW_PRIVATE_HOSTS', false),
      extraCaPem: optional(env, 'WEBHOOKS_EXTRA_CA_PEM'),
      timeoutMs: int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 1),
      retryScheduleMs: intList(env, 'WEBHOOK_RETRY_SCHEDULE_MS', DEFAULT_WEBHOOK_SCHEDULE_MS),
      disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER_MS', 5 * 24 * HOUR, 1),
    },
    collection: {
      apiUrl: str(env, 'PIX_COLLECTION_URL', 'http://127.0.0.1:8100/api-pix/v2'),
      tokenUrl: str(env, 'PIX_COLLECTION_TOKEN_URL', 'http://127.0.0.1:8100/api-pix/oauth/token'),
      clientId: str(env, 'PIX_COLLECTION_CLIENT_ID', SANDBOX_COLLECTION_CLIENT.clientId),
      clientSecret: str(env, 'PIX_COLLECTION_CLIENT_SECRET', SANDBOX_COLLECTION_CLIENT.clientSecret),
      callbackSecret: optional(env, 'PIX_COLLECTION_CALLBACK_SECRET') === null ? null : secret(env, 'PIX_COLLECTION_CALLBACK_SECRET'),
      sweepWindowHours: int(env, 'PIX_COLLECTION_SWEEP_WINDOW_HOURS', 48, 1),
      tls: tlsSettings(env, 'PIX_COLLECTION'),
    },
    registrar: {
      url: str(env, 'REGISTRAR_URL', 'http://127.0.0.1:8100/escriturador'),
      apiKey: str(env, 'REGISTRAR_API_KEY', SANDBOX_REGISTRAR_API_KEY),
      callbackSecret: optional(env, 'REGISTRAR_CALLBACK_SECRET') === null ? null : secret(env, 'REGISTRAR_CALLBACK_SECRET'),
      timeoutMs: int(env, 'REGISTRAR_TIMEOUT_MS', 5_000, 1),
      creationBudgetMs: int(env, 'REGISTRAR_CREATION_BUDGET_MS', 800, 1),
    },
    titles: { graceDaysOverride: env.TITLE_GRACE_DAYS_OVERRIDE ? int(env, 'TITLE_GRACE_DAYS_OVERRIDE', 0) : null },
    audit: { checkpointLog: str(env, 'AUDIT_CHECKPOINT_LOG', DEV_CHECKPOINT_LOG) },
    outbox: { relayIntervalMs: int(env, 'OUTBOX_RELAY_INTERVAL_MS', 2_000, 10), relayAfterMs: int(env, 'OUTBOX_RELAY_AFTER_MS', 3_000, 0) },
    sefaz: sefazSettings(env, svcEnv),
    nfeXml: nfeXml(env),
    openapi: { validateResponses: bool(env, 'OPENAPI_VALIDATE_RESPONSES', false) },
    metrics: { host: str(env, 'METRICS_HOST', '127.0.0.1'), port: env.METRICS_PORT ? int(env, 'METRICS_PORT', 0) : null },
    tracing: tracingSettings(env),
    logLevel: str(env, 'LOG_LEVEL', 'info'),
  };
  try {
    checkDeployment(config);
  } catch (err) {
    if (err instanceof UnsafeSetting) throw new ConfigError(err.message);
    throw err;
  }
  return config;
}
