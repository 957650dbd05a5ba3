import { RuleViolation } from './errors';
import { AddressClass, classifyAddress } from './url-guard-ranges';

/**
 * The webhook SSRF guard (DESIGN.md §10, route rule 5): an https URL whose host resolves only to
 * public addresses. Pure apart from the injected resolver, so registration (api) and delivery
 * (activities) apply the very same rules, and tests resolve names without DNS.
 */
export const URL_REJECTION_CODES = [
  'url_scheme_not_https', 'url_malformed', 'url_host_unresolvable', 'ip_private', 'ip_loopback', 'ip_link_local', 'ip_reserved',
] as const;

export type UrlRejectionCode = (typeof URL_REJECTION_CODES)[number];

/** A host name to its addresses; an empty list or a rejection means unresolvable. */
export type HostResolver = (hostname: string) => Promise<string[]>;

export interface UrlGuardPolicy {
  allowPrivateHosts: boolean;
}

export class WebhookUrlRejected extends RuleViolation {
  constructor(readonly code: UrlRejectionCode) {
    super({ code, message: `webhook url rejected: ${code}` });
  }
}

// Dev and test reach their own private hosts; link-local (cloud metadata) and reserved stay refused.
const ALLOWED_WITH_PRIVATE_HOSTS = new Set<AddressClass>(['ip_private', 'ip_loopback']);

export function addressRejection(address: string, policy: UrlGuardPolicy): UrlRejectionCode | null {
  const cls = classifyAddress(address) ?? 'ip_reserved';
  if (cls === 'public' || (policy.allowPrivateHosts && ALLOWED_WITH_PRIVATE_HOSTS.has(cls))) return null;
  return cls;
}

/** Every address must pass: one private answer among public ones is enough to refuse. */
export function checkAddresses(addresses: string[], policy: UrlGuardPolicy): void {
  if (addresses.length === 0) throw new WebhookUrlRejected('url_host_unresolvable');
  for (const address of addresses) {
    const rejection = addressRejection(address, policy);
    if (rejection) throw new WebhookUrlRejected(rejection);
  }
}

/** The URL and its host (IPv6 without brackets); refuses anything but an https URL with a host. */
export function parseWebhookUrl(raw: string): { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlRejected('url_malformed');
  }
  if (url.protocol !== 'https:') throw new WebhookUrlRejected('url_scheme_not_https');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new WebhookUrlRejected('url_malformed');
  return { url, host };
}

/** An IP literal is its own answer; a name goes through the resolver. */
export async function addressesOf(host: string, resolve: HostResolver): Promise<string[]> {
  if (classifyAddress(host) !== null) return [host];
  return resolve(host).catch(() => []);
}

export async function assertWebhookUrl(raw: string, resolve: HostResolver, policy: UrlGuardPolicy): Promise<void> {
  const { host } = parseWebhookUrl(raw);
  checkAddresses(await addressesOf(host, resolve), policy);
}
