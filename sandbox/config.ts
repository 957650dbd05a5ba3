import path from 'node:path';
import { SANDBOX_COLLECTION_CLIENT, SANDBOX_REGISTRAR_API_KEY } from '../platform/config/config';

/**
 * The sandbox providers' own configuration: a separate process from the api, so it does not share
 * the api's config object. Read once by `sandbox/main.ts`; tests pass the same shape directly.
 */
export interface SandboxConfig {
  host: string;
  port: number;
  /** Base of the `sign_url`s handed out; defaults to the address the server listens on. */
  publicUrl: string | null;
  /** Used only when a document or payment was created without its own `callback_url`. */
  esignCallbackUrl: string | null;
  pixCallbackUrl: string | null;
  settlementDelayMs: number;
  slowSettlementDelayMs: number;
  callbackAttempts: number;
  callbackRetryDelayMs: number;
  callbackTimeoutMs: number;
  /** Each provider signs its callbacks with its own secret, the api's ESIGN_/PIX_CALLBACK_SECRET. No default. */
  callbackSecrets: { esign: string; pix: string };
  /**
   * The collection PSP (API Pix under `/api-pix`): its OAuth2 client, and the secret its webhooks
   * are signed with (the api's PIX_COLLECTION_CALLBACK_SECRET; without one no webhook is sent).
   */
  collection: { clientId: string; clientSecret: string; webhookSecret: string | null };
  /**
   * The escriturador (under `/escriturador`): the API key its clients send, and the secret its
   * webhooks are signed with (the api's REGISTRAR_CALLBACK_SECRET; without one no webhook is sent).
   */
  registrar: { apiKey: string; webhookSecret: string | null };
  logLevel: string;
  /** Where documents, payments and magic counters survive restarts; null keeps them in memory (tests). */
  stateFile: string | null;
}

export const SANDBOX_DEFAULTS: Omit<SandboxConfig, 'callbackSecrets'> = {
  host: '127.0.0.1',
  port: 8100,
  publicUrl: null,
  esignCallbackUrl: null,
  pixCallbackUrl: null,
  settlementDelayMs: 300,
  slowSettlementDelayMs: 30_000,
  callbackAttempts: 5,
  callbackRetryDelayMs: 500,
  callbackTimeoutMs: 5_000,
  logLevel: 'info',
  stateFile: null,
  collection: { ...SANDBOX_COLLECTION_CLIENT, webhookSecret: null },
  registrar: { apiKey: SANDBOX_REGISTRAR_API_KEY, webhookSecret: null },
};

type Env = Record<string, string | undefined>;

function given(env: Env, name: string): string | undefined {
  return env[name] === '' ? undefined : env[name];
}

function whole(env: Env, name: string, fallback: number): number {
  const raw = given(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}

function required(env: Env, name: string): string {
  const value = given(env, name);
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
}

export function loadSandboxConfig(env: Env = process.env): SandboxConfig {
  const d = SANDBOX_DEFAULTS;
  return {
    host: given(env, 'SANDBOX_HOST') ?? d.host,
    port: whole(env, 'SANDBOX_PORT', d.port),
    publicUrl: given(env, 'SANDBOX_PUBLIC_URL') ?? d.publicUrl,
    esignCallbackUrl: given(env, 'SANDBOX_ESIGN_CALLBACK_URL') ?? d.esignCallbackUrl,
    pixCallbackUrl: given(env, 'SANDBOX_PIX_CALLBACK_URL') ?? d.pixCallbackUrl,
    settlementDelayMs: whole(env, 'SANDBOX_SETTLEMENT_DELAY_MS', d.settlementDelayMs),
    slowSettlementDelayMs: whole(env, 'SANDBOX_SLOW_SETTLEMENT_DELAY_MS', d.slowSettlementDelayMs),
    callbackAttempts: Math.max(1, whole(env, 'SANDBOX_CALLBACK_ATTEMPTS', d.callbackAttempts)),
    callbackRetryDelayMs: whole(env, 'SANDBOX_CALLBACK_RETRY_DELAY_MS', d.callbackRetryDelayMs),
    callbackTimeoutMs: whole(env, 'SANDBOX_CALLBACK_TIMEOUT_MS', d.callbackTimeoutMs),
    callbackSecrets: { esign: required(env, 'ESIGN_CALLBACK_SECRET'), pix: required(env, 'PIX_CALLBACK_SECRET') },
    collection: {
      clientId: given(env, 'PIX_COLLECTION_CLIENT_ID') ?? d.collection.clientId,
      clientSecret: given(env, 'PIX_COLLECTION_CLIENT_SECRET') ?? d.collection.clientSecret,
      webhookSecret: given(env, 'PIX_COLLECTION_CALLBACK_SECRET') ?? null,
    },
    registrar: { apiKey: given(env, 'REGISTRAR_API_KEY') ?? d.registrar.apiKey, webhookSecret: given(env, 'REGISTRAR_CALLBACK_SECRET') ?? null },
    logLevel: given(env, 'LOG_LEVEL') ?? d.logLevel,
    // A process started from the environment is the long-lived one (dev, cluster, compose): it keeps its state.
    stateFile: path.resolve(given(env, 'SANDBOX_STATE_FILE') ?? path.join('.data', 'sandbox-state.json')),
  };
}
