import https from 'node:https';
import tls from 'node:tls';
import type { LookupFunction } from 'node:net';
import { lookup } from 'node:dns/promises';
import { addressesOf, checkAddresses, HostResolver, parseWebhookUrl, URL_REJECTION_CODES, UrlGuardPolicy, WebhookUrlRejected } from '../domain/url-guard';
import { classifyAddress } from '../domain/url-guard-ranges';
import { tlsFailure } from './tls-failure';

/** What one POST came to: a status when the receiver answered, else why not. */
export interface PostOutcome {
  statusCode: number | null;
  durationMs: number;
  error: string | null;
}

export type WebhookPost = (url: string, body: string, headers: Record<string, string>, timeoutMs: number) => Promise<PostOutcome>;

export interface TransportOptions {
  resolveHost: HostResolver;
  policy: UrlGuardPolicy;
  /** Dev/test only (config refuses it in prod): a CA trusted beside the public roots. */
  extraCaPem: string | null;
}

/**
 * The guard runs inside the socket's own lookup, so the address judged is the address connected
 * to: a host that resolved publicly at registration and privately now (DNS rebinding) is refused
 * here, and no second resolution can slip in between check and connect.
 */
function guardedLookup({ resolveHost, policy }: TransportOptions): LookupFunction {
  return (hostname, options, callback) => {
    addressesOf(hostname, resolveHost)
      .then((addresses) => {
        checkAddresses(addresses, policy);
        const entries = addresses
          .map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
          .filter((entry) => !options.family || entry.family === options.family);
        if (entries.length === 0) throw new WebhookUrlRejected('url_host_unresolvable');
        if (options.all) callback(null, entries);
        else callback(null, entries[0].address, entries[0].family);
      })
      .catch((err: NodeJS.ErrnoException) => callback(err, ''));
  };
}

const REJECTION = new Set<string>(URL_REJECTION_CODES);

function failureCode(err: unknown): string {
  const code = String((err as { code?: unknown }).code ?? '');
  if (REJECTION.has(code) || code === 'timeout') return code;
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'url_host_unresolvable';
  return tlsFailure(code) ?? 'connection_failed';
}

function send(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, agent: https.Agent): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = https.request(url, { method: 'POST', agent, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) } }, (response) => {
      response.resume(); // only the status matters; the receiver's body is drained, never kept
      resolve(response.statusCode ?? 0);
    });
    // One deadline for the whole exchange (connect, TLS, answer), not an idle timeout.
    const timer = setTimeout(() => request.destroy(Object.assign(new Error('webhook delivery timed out'), { code: 'timeout' })), timeoutMs);
    request.on('close', () => clearTimeout(timer));
    request.on('error', reject);
    request.end(body);
  });
}

/** POSTs to a webhook URL through the guard; redirects are answers like any other, never followed. */
export function createWebhookTransport(options: TransportOptions): WebhookPost {
  const agent = new https.Agent({
    lookup: guardedLookup(options),
    // Built once: a `ca` list given per connection would be parsed again on every handshake.
    secureContext: options.extraCaPem ? tls.createSecureContext({ ca: [...tls.rootCertificates, options.extraCaPem] }) : undefined,
  });
  return async (rawUrl, body, headers, timeoutMs) => {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const { url, host } = parseWebhookUrl(rawUrl);
      // Sockets skip the lookup for an IP literal, so a literal is judged here.
      if (classifyAddress(host) !== null) checkAddresses([host], options.policy);
      const statusCode = await send(url, body, headers, timeoutMs, agent);
      return { statusCode, durationMs: elapsed(), error: null };
    } catch (err) {
      return { statusCode: null, durationMs: elapsed(), error: failureCode(err) };
    }
  };
}

/** The real resolver: every address the system resolver knows for the name. */
export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);
