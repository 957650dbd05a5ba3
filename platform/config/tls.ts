import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/**
 * TLS with a provider: the client certificate and key this service presents (mutual TLS; both or
 * neither), and the CA the provider's server certificate must chain to (null: the public roots).
 */
export interface ClientTls {
  certPem: string | null;
  keyPem: string | null;
  caPem: string | null;
}

type Env = Record<string, string | undefined>;

export class TlsSettingError extends Error {}

/** A PEM given inline, or the path of a file holding it. The message never carries the value: it may be a key. */
export function pem(env: Env, name: string): string | null {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return null;
  if (raw.includes('-----BEGIN ')) return raw.replace(/\\n/g, '\n');
  try {
    return readFileSync(raw, 'utf8');
  } catch (err) {
    throw new TlsSettingError(`${name}: neither a PEM nor a readable file (${(err as NodeJS.ErrnoException).code ?? 'unreadable'})`);
  }
}

function parsed<T>(name: string, what: string, parse: () => T): T {
  try {
    return parse();
  } catch {
    throw new TlsSettingError(`${name} is not a PEM ${what}`);
  }
}

/**
 * `<prefix>_TLS_CERT`, `_KEY` and `_CA`, read and checked once at start-up: the certificate and
 * key go together and must match, so a bad setting stops the process instead of a first payment.
 * Null when none is set (the provider's server has a public certificate and wants no client's).
 */
export function clientTls(env: Env, prefix: string): ClientTls | null {
  const [certName, keyName, caName] = ['CERT', 'KEY', 'CA'].map((part) => `${prefix}_TLS_${part}`);
  const [certPem, keyPem, caPem] = [pem(env, certName), pem(env, keyName), pem(env, caName)];
  if (certPem === null && keyPem === null && caPem === null) return null;
  if ((certPem === null) !== (keyPem === null)) throw new TlsSettingError(`${certName} and ${keyName} are set together (the client certificate and its private key)`);
  if (certPem !== null && keyPem !== null) {
    const cert = parsed(certName, 'certificate', () => new X509Certificate(certPem));
    const key = parsed(keyName, 'private key', () => createPrivateKey(keyPem));
    if (!cert.checkPrivateKey(key)) throw new TlsSettingError(`${keyName} is not the private key of ${certName}`);
  }
  if (caPem !== null) parsed(caName, 'CA certificate', () => new X509Certificate(caPem));
  return { certPem, keyPem, caPem };
}
