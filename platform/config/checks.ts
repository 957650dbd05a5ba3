import type { Config } from './config';
import { PASSWORD_LOG2N } from '../crypto/passwords';

/** What a deployment's settings must not be: checked once by `loadConfig`, which refuses to start otherwise. */
export class UnsafeSetting extends Error {}

/** Where dev and tests keep the audit checkpoint log; production must name its own storage. */
export const DEV_CHECKPOINT_LOG = '.data/audit-checkpoints.jsonl';

/** Tokens outlive a revoked staff account or a leaked token by at most this much in prod. */
export const PROD_MAX_TOKEN_TTL_SECONDS = 3_600;

const TEST_WORDS = /test|example|change|secret|sample|dummy|demo|dev|sandbox|password|local/i;

/** A provider secret someone typed for a test, not one drawn at random: short, wordy or repetitive. */
function looksLikeTestValue(secret: string): boolean {
  return secret.length < 32 || TEST_WORDS.test(secret) || new Set(secret).size < 12;
}

function refuseInProd(config: Config): void {
  const refuse = (message: string) => { throw new UnsafeSetting(`${message} when SERVICE_ENV=prod`); };
  if (config.webhooks.allowPrivateHosts || config.webhooks.extraCaPem) refuse('WEBHOOKS_ALLOW_PRIVATE_HOSTS and WEBHOOKS_EXTRA_CA_PEM are refused');
  if (!config.rateLimit.enabled) refuse('RATE_LIMIT_ENABLED=false is refused');
  if (config.passwords.scryptLog2N < PASSWORD_LOG2N) refuse(`PASSWORD_SCRYPT_LOG2N below ${PASSWORD_LOG2N} is refused`);
  // The codec cookie's Secure flag and every link we hand out follow PUBLIC_URL.
  if (!config.http.publicUrl.startsWith('https://')) refuse('PUBLIC_URL must be https');
  if (config.http.hstsMaxAgeSeconds <= 0) refuse('HSTS_MAX_AGE_SECONDS must be above 0');
  if (config.jwt.tokenTtlSeconds > PROD_MAX_TOKEN_TTL_SECONDS) refuse(`TOKEN_TTL_SECONDS above ${PROD_MAX_TOKEN_TTL_SECONDS} is refused`);
  if (config.http.trustProxy === true) refuse('TRUST_PROXY=true (every hop trusted: the client picks its own address) is refused; give the hop count or the proxies\' subnets');
  if (config.codec.corsOrigins.some((origin) => !origin.startsWith('https://'))) refuse('CODEC_CORS_ORIGINS (or TEMPORAL_WEB_URL) must be https origins');
  for (const [name, secret] of [['ESIGN_CALLBACK_SECRET', config.callbacks.esignSecret], ['PIX_CALLBACK_SECRET', config.callbacks.pixSecret]]) {
    if (looksLikeTestValue(secret)) refuse(`${name} looks like a test value (at least 32 random characters, no words)`);
  }
  // The sandbox's mailbox would show every enrolment token to whoever can read it.
  if (config.mail.smtpUrl === null) refuse('MAIL_SMTP_URL is required (staff enrolment e-mail goes through an SMTP relay)');
  if (config.callbacks.esignSecret === config.callbacks.pixSecret) refuse('ESIGN_CALLBACK_SECRET and PIX_CALLBACK_SECRET must differ');
  // The checkpoint log is worth something only outside what the database's administrators can write.
  if (config.audit.checkpointLog === DEV_CHECKPOINT_LOG) refuse('AUDIT_CHECKPOINT_LOG must name the checkpoint log\'s own storage (the .data default is refused)');
  const { collection } = config;
  if (collection.callbackSecret !== null) {
    if (looksLikeTestValue(collection.callbackSecret)) refuse('PIX_COLLECTION_CALLBACK_SECRET looks like a test value (at least 32 random characters, no words)');
    if (looksLikeTestValue(collection.clientSecret)) refuse('PIX_COLLECTION_CLIENT_SECRET looks like a test value (the PSP\'s client secret)');
  }
  const { sefaz } = config;
  if (Object.keys(sefaz.authorizers).length === 0 || sefaz.distributionUrl === '') refuse('SEFAZ_AUTHORIZERS and SEFAZ_DISTRIBUTION_URL are required');
  if ([...Object.values(sefaz.authorizers), sefaz.distributionUrl].some((url) => !url.startsWith('https://'))) refuse('SEFAZ_AUTHORIZERS and SEFAZ_DISTRIBUTION_URL must be https');
  if (config.nfeXml.trustedRoots.length === 0) refuse('NFE_XML_TRUSTED_ROOTS (the ICP-Brasil roots an NF-e XML\'s signer must chain to) is required');
  const { registrar } = config;
  if (registrar.callbackSecret !== null) {
    if (looksLikeTestValue(registrar.callbackSecret)) refuse('REGISTRAR_CALLBACK_SECRET looks like a test value (at least 32 random characters, no words)');
    if (looksLikeTestValue(registrar.apiKey)) refuse('REGISTRAR_API_KEY looks like a test value (the escriturador\'s API key)');
  }
}

/**
 * Production fails closed on every setting that weakens it; sandbox faces the
 * internet like prod, so only dev may reach private webhook hosts.
 */
export function checkDeployment(config: Config): void {
  if (config.serviceEnv === 'prod') refuseInProd(config);
  if (config.serviceEnv !== 'dev' && config.webhooks.allowPrivateHosts) {
    throw new UnsafeSetting(`WEBHOOKS_ALLOW_PRIVATE_HOSTS is refused when SERVICE_ENV=${config.serviceEnv}`);
  }
}
