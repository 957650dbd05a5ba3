import { X509Certificate } from 'node:crypto';
import { DOMParser } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import type { NfeFacts } from '../../domain/nfe-xml/proof';
import { XmlError, XmlReader } from './xml';

/** The NF-e's namespace and XML-DSig's. */
const NFE_NS = 'http://www.portalfiscal.inf.br/nfe';
const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';

/** The XML cannot be read as a procNFe (or an NFe): not XML, a DOCTYPE, a part missing. */
export class NfeXmlMalformed extends Error {}
/** The issuer's signature does not verify over the `infNFe` the XML carries. */
export class NfeSignatureInvalid extends Error {}

/** A procNFe whose issuer's signature verifies: its facts, and the certificates the signature carries (the signer's first). */
export interface SignedNfe {
  facts: NfeFacts;
  /** `ide/dhEmi`: the moment the issuer signed, at which its certificate chain must be valid. */
  issuedAt: Date;
  signer: X509Certificate;
  intermediates: X509Certificate[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const AMOUNT = /^\d{1,13}(\.\d{1,2})?$/;

function certificate(base64: string): X509Certificate {
  try {
    return new X509Certificate(Buffer.from(base64.replace(/\s+/g, ''), 'base64'));
  } catch {
    throw new NfeSignatureInvalid('a KeyInfo X509Certificate does not parse');
  }
}

/** The one `Signature` the NF-e's issuer placed beside `infNFe` (SEFAZ's protocol may carry one of its own). */
function issuerSignature(xml: string): Element {
  const malformed = (message: string) => { throw new NfeXmlMalformed(`not well-formed XML (${message})`); };
  const doc = new DOMParser({ errorHandler: { error: malformed, fatalError: malformed } }).parseFromString(xml, 'text/xml');
  const nfes = Array.from(doc.getElementsByTagNameNS(NFE_NS, 'NFe'));
  if (nfes.length !== 1) throw new NfeXmlMalformed(`the XML holds ${nfes.length} NFe elements, not one`);
  const signatures = Array.from(nfes[0].childNodes).filter((node): node is Element => node.nodeType === 1 && (node as Element).namespaceURI === DSIG_NS && (node as Element).localName === 'Signature');
  if (signatures.length !== 1) throw new NfeSignatureInvalid(`the NFe carries ${signatures.length} issuer signatures, not one`);
  return signatures[0];
}

/**
 * Checks the issuer's XML signature (xml-crypto) with the certificate its `KeyInfo` carries: one
 * reference, to `#<infNFe Id>`, whose digest and signature verify. Returns the signed `infNFe`
 * canonicalised as it was digested, so every fact is read from what was signed.
 */
function verifiedInfNfe(xml: string, id: string, signer: X509Certificate): { signedXml: string; digest: string } {
  const signed = new SignedXml({ publicCert: signer.toString(), getCertFromKeyInfo: () => null });
  const signature = issuerSignature(xml);
  let valid: boolean;
  try {
    signed.loadSignature(signature);
    const references = signed.getReferences();
    if (references.length !== 1 || references[0].uri !== `#${id}`) throw new NfeSignatureInvalid(`the signature does not reference #${id} alone`);
    valid = signed.checkSignature(xml);
  } catch (err) {
    if (err instanceof NfeSignatureInvalid) throw err;
    // xml-crypto's own messages may quote the signature's values: only that it failed is told.
    throw new NfeSignatureInvalid('the signature cannot be checked (an unsupported algorithm, a duplicated Id, or a SignedInfo out of shape)');
  }
  const [signedXml] = signed.getSignedReferences();
  if (!valid || signedXml === undefined) throw new NfeSignatureInvalid('the signature does not verify');
  return { signedXml, digest: String(signed.getReferences()[0].digestValue) };
}

function readFacts(infNfe: XmlReader, key: string, signedDigest: string, protocol: XmlReader | null): NfeFacts {
  const document = (party: XmlReader) => party.textOrNull('CNPJ') ?? party.textOrNull('CPF');
  const installments = (infNfe.has('cobr') ? infNfe.at('cobr').all('dup') : []).map((dup) => ({ dueDate: dup.at('dVenc').text(), value: dup.at('vDup').text() }));
  const odd = installments.find((dup) => !DATE.test(dup.dueDate) || !AMOUNT.test(dup.value));
  if (odd) throw new NfeXmlMalformed(`an installment (cobr/dup) reads dVenc "${odd.dueDate}", vDup "${odd.value}"`);
  return {
    key, model: infNfe.at('ide').at('mod').text(), issuerDocument: document(infNfe.at('emit')),
    recipientDocument: infNfe.has('dest') ? document(infNfe.at('dest')) : null, installments, signedDigest,
    protocol: protocol && { key: protocol.at('chNFe').text(), digest: protocol.at('digVal').text() },
  };
}

/**
 * A procNFe (an `nfeProc` with its `protNFe`, or a bare `NFe`) read and its issuer's signature
 * checked. Throws NfeXmlMalformed or NfeSignatureInvalid; whether the signer is trusted is the
 * caller's to decide (platform/crypto/certificate-chain.ts).
 */
export function openSignedNfe(xml: string): SignedNfe {
  // A DOCTYPE has no place in an NF-e, and entity expansion is how XML parsers are attacked.
  if (/<!DOCTYPE/i.test(xml)) throw new NfeXmlMalformed('the XML declares a DOCTYPE');
  try {
    const root = XmlReader.parse(xml, 'nfe_xml');
    const proc = root.has('nfeProc') ? root.at('nfeProc') : null;
    const nfe = (proc ?? root).at('NFe');
    const id = nfe.at('infNFe').attribute('Id') ?? '';
    if (!/^NFe\d{44}$/.test(id)) throw new NfeXmlMalformed(`infNFe's Id "${id}" is not NFe followed by the 44-digit key`);
    const x509 = nfe.at('Signature').at('KeyInfo').at('X509Data').all('X509Certificate').map((cert) => certificate(cert.text()));
    if (x509.length === 0) throw new NfeSignatureInvalid('the signature\'s KeyInfo carries no X509Certificate');
    const [signer, ...intermediates] = x509;
    const { signedXml, digest } = verifiedInfNfe(xml, id, signer);
    const infNfe = XmlReader.parse(signedXml, 'infNFe').at('infNFe');
    const protocol = proc && proc.has('protNFe') ? proc.at('protNFe').at('infProt') : null;
    const issuedAt = new Date(infNfe.at('ide').at('dhEmi').text());
    if (Number.isNaN(issuedAt.getTime())) throw new NfeXmlMalformed('ide/dhEmi is not a date-time');
    return { facts: readFacts(infNfe, id.slice(3), digest, protocol), issuedAt, signer, intermediates };
  } catch (err) {
    if (err instanceof XmlError) throw new NfeXmlMalformed(err.message);
    throw err;
  }
}
