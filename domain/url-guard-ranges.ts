/**
 * Which kind of network an IP address belongs to, for the webhook SSRF guard (DESIGN.md §10).
 * Pure: parses the textual address itself so the api, the activities and the tests share one
 * table. IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address,
 * so `::ffff:127.0.0.1` is loopback like `127.0.0.1`.
 */
export type AddressClass = 'public' | 'ip_private' | 'ip_loopback' | 'ip_link_local' | 'ip_reserved';

interface Ip {
  version: 4 | 6;
  value: bigint;
}

interface Range extends Ip {
  prefix: number;
  cls: Exclude<AddressClass, 'public'>;
}

function parseIpv4(text: string): bigint | null {
  const parts = text.split('.');
  if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return null;
  return parts.reduce((acc, p) => (acc << 8n) | BigInt(p), 0n);
}

function parseIpv6(text: string): bigint | null {
  let address = text.replace(/%.*$/, ''); // a zone id names an interface, not another address
  // A dotted IPv4 tail (`::ffff:1.2.3.4`) stands for the last two groups.
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted) {
    const v4 = parseIpv4(dotted[2]);
    if (v4 === null) return null;
    address = `${dotted[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (s: string) => (s === '' ? [] : s.split(':'));
  const left = groupsOf(halves[0]);
  const right = halves.length === 2 ? groupsOf(halves[1]) : [];
  const missing = 8 - left.length - right.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const groups = [...left, ...Array<string>(missing).fill('0'), ...right];
  if (groups.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(`0x${g}`), 0n);
}

function parseIp(text: string): Ip | null {
  const v4 = parseIpv4(text);
  if (v4 !== null) return { version: 4, value: v4 };
  const v6 = text.includes(':') ? parseIpv6(text) : null;
  return v6 === null ? null : { version: 6, value: v6 };
}

function range(cidr: string, cls: Range['cls']): Range {
  const [address, prefix] = cidr.split('/');
  const ip = parseIp(address)!;
  return { ...ip, prefix: Number(prefix), cls };
}

function contains(r: { version: 4 | 6; value: bigint; prefix: number }, ip: Ip): boolean {
  if (r.version !== ip.version) return false;
  const shift = BigInt((ip.version === 4 ? 32 : 128) - r.prefix);
  return ip.value >> shift === r.value >> shift;
}

const RANGES: Range[] = [
  range('127.0.0.0/8', 'ip_loopback'),
  range('10.0.0.0/8', 'ip_private'),
  range('172.16.0.0/12', 'ip_private'),
  range('192.168.0.0/16', 'ip_private'),
  range('100.64.0.0/10', 'ip_private'), // carrier-grade NAT: someone's internal network
  range('169.254.0.0/16', 'ip_link_local'), // includes cloud metadata endpoints
  range('0.0.0.0/8', 'ip_reserved'),
  range('192.0.0.0/24', 'ip_reserved'),
  range('192.0.2.0/24', 'ip_reserved'),
  range('192.88.99.0/24', 'ip_reserved'),
  range('198.18.0.0/15', 'ip_reserved'),
  range('198.51.100.0/24', 'ip_reserved'),
  range('203.0.113.0/24', 'ip_reserved'),
  range('224.0.0.0/4', 'ip_reserved'), // multicast
  range('240.0.0.0/4', 'ip_reserved'), // future use and broadcast
  range('::1/128', 'ip_loopback'),
  range('fe80::/10', 'ip_link_local'),
  range('fc00::/7', 'ip_private'),
  range('fec0::/10', 'ip_private'),
  range('ff00::/8', 'ip_reserved'),
  range('2001::/23', 'ip_reserved'),
  range('2001:db8::/32', 'ip_reserved'),
  range('100::/64', 'ip_reserved'),
  range('3fff::/20', 'ip_reserved'),
];

const GLOBAL_UNICAST_V6 = range('2000::/3', 'ip_reserved');
const EMBEDDED_V4 = [range('::ffff:0:0/96', 'ip_reserved'), range('64:ff9b::/96', 'ip_reserved')];
const SIX_TO_FOUR = range('2002::/16', 'ip_reserved');

function classifyIp(ip: Ip): AddressClass {
  if (EMBEDDED_V4.some((r) => contains(r, ip))) return classifyIp({ version: 4, value: ip.value & 0xffffffffn });
  if (contains(SIX_TO_FOUR, ip)) return classifyIp({ version: 4, value: (ip.value >> 80n) & 0xffffffffn });
  const hit = RANGES.find((r) => contains(r, ip));
  if (hit) return hit.cls;
  // Outside global unicast, IPv6 is unspecified, IPv4-compatible or unassigned: never a receiver.
  return ip.version === 6 && !contains(GLOBAL_UNICAST_V6, ip) ? 'ip_reserved' : 'public';
}

/** The class of a textual IP address; anything that is not an address is `null`. */
export function classifyAddress(text: string): AddressClass | null {
  const ip = parseIp(text);
  return ip === null ? null : classifyIp(ip);
}
