import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { type CertificateExtension, generate } from 'selfsigned';
import { pkcs12 } from '../../scripts/lib/a1-certificate.mjs';

export interface MutualTlsParty {
  certPem: string;
  keyPem: string;
}

export interface MutualTlsCa {
  caPem: string;
  /** The PSP's server certificate, for 127.0.0.1. */
  server: MutualTlsParty;
  /** A client certificate this CA issued: the one the PSP accepts. */
  client: MutualTlsParty;
}

const EC = { keyType: 'ec', algorithm: 'sha256' } as const;

/**
 * A CA made for one run, with a server and a client certificate it signed (selfsigned: Node's crypto
 * cannot issue X.509); `clientCommonName` names the client (an A1's `<name>:<CNPJ>`).
 */
export async function mutualTlsCa(name: string, clientCommonName = `${name} client`): Promise<MutualTlsCa> {
  const root = await generate([{ name: 'commonName', value: `${name} CA` }], {
    ...EC, extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  const leaf = (commonName: string, extensions: CertificateExtension[]) => generate([{ name: 'commonName', value: commonName }], {
    ...EC, ca: { key: root.private, cert: root.cert }, extensions: [{ name: 'basicConstraints', cA: false }, ...extensions],
  }).then((pems) => ({ certPem: pems.cert, keyPem: pems.private }));
  return {
    caPem: root.cert,
    server: await leaf('127.0.0.1', [{ name: 'extKeyUsage', serverAuth: true }, { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]),
    client: await leaf(clientCommonName, [{ name: 'extKeyUsage', clientAuth: true }]),
  };
}

export interface MutualTlsFront {
  url: string;
  close(): Promise<void>;
}

/**
 * An HTTPS front to a plain HTTP service that, as a real PSP's API Pix does, completes the
 * handshake only with a client certificate its CA issued, then forwards the request as it came.
 */
export async function mutualTlsFront(target: string, ca: MutualTlsCa): Promise<MutualTlsFront> {
  const server = https.createServer({ cert: ca.server.certPem, key: ca.server.keyPem, ca: ca.caPem, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name))) as Record<string, string>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * `party` as a PKCS#12 file protected by `passphrase`, as an ICP-Brasil A1 certificate is handed
 * over (Node's crypto cannot write PKCS#12: the openssl command line does it).
 */
export function pkcs12Of(party: MutualTlsParty, passphrase: string): Uint8Array {
  return pkcs12(party.certPem, party.keyPem, passphrase);
}
