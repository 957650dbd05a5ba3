import ipaddr from 'ipaddr.js';

/**
 * Which kind of network an IP address belongs to, for the webhook SSRF guard (DESIGN.md §10).
 * The special-purpose ranges are ipaddr.js's (IANA's registries); this module only says which of
 * them a webhook may never reach. IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are
 * judged by that address, so `::ffff:127.0.0.1` is loopback like `127.0.0.1`.
 */
export type AddressClass = 'public' | 'ip_private' | 'ip_loopback' | 'ip_link_local' | 'ip_reserved';

type Blocked = Exclude<AddressClass, 'public'>;

const V4_CLASS: Record<string, Blocked | 'public'> = {
  unicast: 'public',
  private: 'ip_private',
  carrierGradeNat: 'ip_private', // someone's internal network
  loopback: 'ip_loopback',
  linkLocal: 'ip_link_local', // includes cloud metadata endpoints
};

const V6_CLASS: Record<string, Blocked | 'public'> = {
  unicast: 'public',
  uniqueLocal: 'ip_private',
  deprecatedSiteLocal: 'ip_private',
  loopback: 'ip_loopback',
  linkLocal: 'ip_link_local',
};

/** Global unicast (2000::/3) is the only IPv6 a receiver lives in; IETF protocol assignments (2001::/23) are not receivers either. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');
const PROTOCOL_ASSIGNMENTS = ipaddr.parseCIDR('2001::/23');

const v4Of = (high: number, low: number) => ipaddr.fromByteArray([high >> 8, high & 0xff, low >> 8, low & 0xff]) as ipaddr.IPv4;

function classifyV6(ip: ipaddr.IPv6): AddressClass {
  const { parts } = ip;
  const range = ip.range();
  const mapped = parts.slice(0, 5).every((p) => p === 0) && parts[5] === 0xffff;
  if (mapped || range === 'rfc6052') return classifyV4(v4Of(parts[6], parts[7]));
  if (range === '6to4') return classifyV4(v4Of(parts[1], parts[2]));
  const cls = V6_CLASS[range] ?? 'ip_reserved';
  if (cls === 'public' && (!ip.match(GLOBAL_UNICAST) || ip.match(PROTOCOL_ASSIGNMENTS))) return 'ip_reserved';
  return cls;
}

function classifyV4(ip: ipaddr.IPv4): AddressClass {
  // Unspecified, broadcast, multicast, documentation, benchmarking, future use…: never a receiver.
  return V4_CLASS[ip.range()] ?? 'ip_reserved';
}

/**
 * A dotted IPv4 tail (`::ffff:1.2.3.4`) written as the two groups it stands for: ipaddr.js would
 * read `::1.2.3.4` (IPv4-compatible, deprecated) as mapped, and so as the public 1.2.3.4.
 */
function hexTail(address: string): string | null {
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (!dotted) return address;
  if (!ipaddr.IPv4.isValidFourPartDecimal(dotted[2])) return null;
  const [a, b, c, d] = ipaddr.IPv4.parse(dotted[2]).octets;
  return `${dotted[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

/** The class of a textual IP address; anything that is not an address is `null`. */
export function classifyAddress(text: string): AddressClass | null {
  // A zone id names an interface, not another address.
  const address = text.includes(':') ? hexTail(text.replace(/%.*$/, '')) : text;
  if (address === null || !ipaddr.isValid(address)) return null;
  // Only the four-part dotted form is an IPv4 address here, never `127.1` or `0x7f.1`.
  if (!address.includes(':') && !ipaddr.IPv4.isValidFourPartDecimal(address)) return null;
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv4' ? classifyV4(ip as ipaddr.IPv4) : classifyV6(ip as ipaddr.IPv6);
}
