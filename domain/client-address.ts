import ipaddr from 'ipaddr.js';

/** What Express's `trust proxy` accepts: off, every hop, a hop count, or the proxies' addresses and subnets. */
export type TrustProxy = boolean | number | string[];

/** proxy-addr's names for ranges, accepted beside addresses and CIDR subnets. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

export class TrustProxyError extends Error {}

/**
 * `TRUST_PROXY`: `false` (or empty, or 0) trusts no proxy; a whole number is how many proxies sit
 * in front (the address that many hops from the right of `X-Forwarded-For` is the client); a
 * comma-separated list of addresses, subnets and proxy-addr's names (`loopback`, `linklocal`,
 * `uniquelocal`) trusts exactly those; `true` trusts every hop, so the client picks its address.
 */
export function parseTrustProxy(raw: string | null | undefined): TrustProxy {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '' || value === 'false' || value === 'no') return false;
  if (value === 'true' || value === 'yes') return true;
  if (/^\d+$/.test(value)) return Number(value) === 0 ? false : Number(value);
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  for (const entry of entries) {
    const valid = RANGE_NAMES.has(entry) || ipaddr.isValid(entry) || isCidr(entry);
    if (!valid) throw new TrustProxyError(`"${entry}" is neither an address, a subnet, nor one of ${[...RANGE_NAMES].join(', ')}`);
  }
  return entries;
}

function isCidr(entry: string): boolean {
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/**
 * The address a request is counted under. An IPv6 client holds a whole /64 (one subscriber's
 * prefix, 2^64 addresses), so it is counted by that prefix; an IPv4-mapped IPv6 address counts as
 * its IPv4. Something that is not an address at all (a proxy hop count larger than the real chain
 * lets the client's own `X-Forwarded-For` text through) counts as the connecting socket.
 */
export function rateLimitAddress(clientIp: string | undefined, socketAddress: string | undefined): string {
  for (const candidate of [clientIp, socketAddress]) {
    if (!candidate || !ipaddr.isValid(candidate)) continue;
    const address = ipaddr.process(candidate);
    if (address.kind() === 'ipv4') return address.toString();
    const prefix = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16)).join(':');
    return `${prefix}::/64`;
  }
  return 'unknown';
}
