// A throw-away A1 certificate as an assignor delegates it for SEFAZ's distribution: a PKCS#12
// whose CN ends in the party's CPF or CNPJ, as ICP-Brasil's do, made with openssl (the PFX an
// integrator uploads is one too). For black-box runs and tests; nothing here is ICP-Brasil's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

const DAY_MS = 86_400_000;

/** The PFX in base64, opened by `password`, valid until `notAfter` (a year from now by default). */
export async function throwAwayA1(document, password, notAfter = new Date(Date.now() + 365 * DAY_MS)) {
  const pems = await generate([{ name: 'countryName', value: 'BR' }, { name: 'organizationName', value: 'ICP-Brasil' }, { name: 'commonName', value: `PADARIA CENTRAL LTDA:${document}` }], {
    keyType: 'ec', algorithm: 'sha256', notBeforeDate: new Date(notAfter.getTime() - 400 * DAY_MS), notAfterDate: notAfter,
  });
  return pkcs12(pems.cert, pems.private, password).toString('base64');
}

/** A certificate and its key as the PKCS#12 openssl exports, under `password`. */
export function pkcs12(certPem, keyPem, password) {
  const folder = mkdtempSync(path.join(tmpdir(), 'pkcs12-'));
  try {
    writeFileSync(path.join(folder, 'cert.pem'), certPem);
    writeFileSync(path.join(folder, 'key.pem'), keyPem);
    const made = spawnSync('openssl', ['pkcs12', '-export', '-in', 'cert.pem', '-inkey', 'key.pem', '-out', 'a1.pfx', '-passout', `pass:${password}`], { cwd: folder, encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl pkcs12 failed: ${made.error?.message ?? made.stderr}`);
    return readFileSync(path.join(folder, 'a1.pfx'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
