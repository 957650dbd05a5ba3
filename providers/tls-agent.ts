import { Agent } from 'undici';
import type { ClientTls } from '../platform/config/tls';

/** A client certificate as a PKCS#12 file (an ICP-Brasil A1) and its password. */
export interface Pkcs12 {
  pfx: Uint8Array;
  passphrase: string;
}

const present = (pems: Record<string, string | null>) => Object.fromEntries(Object.entries(pems).filter(([, pem]) => pem !== null));

/**
 * A connection pool for mutual TLS: it presents the configured client certificate, or `instead` a
 * PKCS#12 one (a party's delegated certificate), and trusts the configured CA; none without either.
 */
export function tlsAgent(tls: ClientTls | null | undefined, instead: Pkcs12 | null = null): Agent | undefined {
  if (!tls && !instead) return undefined;
  const ca = present({ ca: tls?.caPem ?? null });
  const client = instead ? { pfx: Buffer.from(instead.pfx), passphrase: instead.passphrase } : present({ cert: tls?.certPem ?? null, key: tls?.keyPem ?? null });
  return new Agent({ connect: { ...ca, ...client } });
}
