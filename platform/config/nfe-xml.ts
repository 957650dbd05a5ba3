import type { X509Certificate } from 'node:crypto';
import { CertificateBundleError, certificatesOfBundle } from '../crypto/certificate-chain';
import { pem, TlsSettingError } from './tls';

/**
 * Proving an NF-e by its XML: the roots its issuer's certificate must chain to (the ICP-Brasil
 * roots in production; a test's own CA elsewhere). Empty: no XML is trusted, so every `nfe_xml`
 * sent is refused as `nfe_xml_untrusted_certificate` (production refuses to start so).
 */
export interface NfeXmlSettings {
  trustedRoots: X509Certificate[];
}

export class NfeXmlSettingError extends Error {}

/** `NFE_XML_TRUSTED_ROOTS`: a PEM bundle of CA certificates, inline or the path of a file holding it. */
export function nfeXmlSettings(env: Record<string, string | undefined>): NfeXmlSettings {
  try {
    const bundle = pem(env, 'NFE_XML_TRUSTED_ROOTS');
    const trustedRoots = bundle === null ? [] : certificatesOfBundle(bundle, 'NFE_XML_TRUSTED_ROOTS');
    const notCa = trustedRoots.find((cert) => !cert.ca);
    if (notCa) throw new NfeXmlSettingError(`NFE_XML_TRUSTED_ROOTS: "${notCa.subject}" is not a CA certificate`);
    return { trustedRoots };
  } catch (err) {
    if (err instanceof TlsSettingError || err instanceof CertificateBundleError) throw new NfeXmlSettingError(err.message);
    throw err;
  }
}
