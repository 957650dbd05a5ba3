// The local certificate authority of `npm run dev`, made once in .data/dev-ca/: the dev worker
// trusts it (WEBHOOKS_EXTRA_CA_PEM, beside the public roots), and the certificate it signed for
// localhost, 127.0.0.1 and ::1 is what a local HTTPS webhook receiver serves. Delete the folder
// to make new ones. Node's crypto cannot build X.509 certificates, hence `selfsigned` (a dev dependency).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { generate } from 'selfsigned';

const YEAR_MS = 365 * 86_400_000;

async function makeCa(files) {
  const now = new Date();
  const root = await generate([{ name: 'commonName', value: 'Receivables Anticipation dev CA' }], {
    keyType: 'ec', algorithm: 'sha256', notBeforeDate: now, notAfterDate: new Date(now.getTime() + 10 * YEAR_MS),
    extensions: [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }],
  });
  const leaf = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec', algorithm: 'sha256', notBeforeDate: now, notAfterDate: new Date(now.getTime() + 2 * YEAR_MS),
    ca: { key: root.private, cert: root.cert },
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }, { type: 7, ip: '::1' }] },
    ],
  });
  writeFileSync(files.caKey, root.private, { mode: 0o600 });
  writeFileSync(files.key, leaf.private, { mode: 0o600 });
  writeFileSync(files.cert, leaf.cert);
  writeFileSync(files.ca, root.cert);
}

/** The dev CA's files in `folder`, made the first time: `ca` (to trust), `cert` and `key` (for a local receiver), and the CA's PEM. */
export async function ensureDevCa(folder) {
  const files = {
    ca: path.join(folder, 'ca.pem'), caKey: path.join(folder, 'ca-key.pem'),
    cert: path.join(folder, 'localhost.pem'), key: path.join(folder, 'localhost-key.pem'),
  };
  if (!Object.values(files).every((file) => existsSync(file))) {
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    await makeCa(files);
  }
  return { ...files, caPem: readFileSync(files.ca, 'utf8') };
}

/** The worker's WEBHOOKS_EXTRA_CA_PEM: the dev CA, after any CA the environment already trusts. */
export const withDevCa = (existing, caPem) => (existing ? `${existing.trim()}\n${caPem}` : caPem);
