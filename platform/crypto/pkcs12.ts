import { X509Certificate } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { createSecureContext, TLSSocket } from 'node:tls';

/** What a PKCS#12 file's certificate says of itself. */
export interface Pkcs12Certificate {
  /** The subject's CN; an ICP-Brasil e-CNPJ's is `<name>:<CNPJ>`. */
  commonName: string | null;
  /** The subject as one line, `C=BR, O=ICP-Brasil, CN=...`. */
  subject: string;
  serial: string;
  notAfter: Date;
}

export class Pkcs12Unreadable extends Error {}

/**
 * Opens a PKCS#12 file (an A1 certificate and its key) as the TLS client that will present it does,
 * so a file that opens here is one the SEFAZ adapter can use: a wrong password, a damaged file or an
 * encryption OpenSSL 3 no longer opens by default (RC2, the legacy A1 export) fail alike.
 */
export function readPkcs12(pfx: Uint8Array, passphrase: string): Pkcs12Certificate {
  let socket: TLSSocket | null = null;
  try {
    socket = new TLSSocket(null as unknown as Duplex, { secureContext: createSecureContext({ pfx: Buffer.from(pfx), passphrase }) });
    const own = socket.getCertificate();
    if (!own || !('raw' in own) || !own.raw) throw new Pkcs12Unreadable('the file holds no certificate');
    const certificate = new X509Certificate(own.raw);
    const cn = certificate.subject.split('\n').find((part) => part.startsWith('CN='));
    return { commonName: cn ? cn.slice(3) : null, subject: certificate.subject.split('\n').join(', '), serial: certificate.serialNumber, notAfter: certificate.validToDate };
  } catch (err) {
    throw err instanceof Pkcs12Unreadable ? err : new Pkcs12Unreadable((err as Error).message);
  } finally {
    socket?.destroy();
  }
}
