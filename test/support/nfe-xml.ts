import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

/**
 * NF-e XML as an issuer and SEFAZ would produce it, signed by a throw-away CA made for the run
 * (root → intermediate → the issuer's A1 certificate, as ICP-Brasil's chains go), with the
 * algorithms of the NF-e's layout 4.00: RSA-SHA1 over C14N, the reference to `#NFe<key>`.
 */
export interface NfeSigner {
  certPem: string;
  keyPem: string;
  /** The intermediate the signature's KeyInfo carries after the signer's certificate. */
  intermediatePem: string;
}

export interface NfeCa {
  rootPem: string;
  signer: NfeSigner;
}

const RSA = { keyType: 'rsa', keySize: 2048, algorithm: 'sha256', notBeforeDate: new Date(Date.now() - 90 * 86_400_000) } as const;
const CA_EXTENSIONS = [{ name: 'basicConstraints', cA: true, critical: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true }] as const;

export async function nfeCa(name: string): Promise<NfeCa> {
  const root = await generate([{ name: 'commonName', value: `${name} Raiz` }], { ...RSA, extensions: [...CA_EXTENSIONS] });
  const intermediate = await generate([{ name: 'commonName', value: `${name} AC` }], { ...RSA, ca: { key: root.private, cert: root.cert }, extensions: [...CA_EXTENSIONS] });
  const leaf = await generate([{ name: 'commonName', value: `${name} emitente A1` }], {
    ...RSA, ca: { key: intermediate.private, cert: intermediate.cert },
    extensions: [{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, nonRepudiation: true, critical: true }],
  });
  return { rootPem: root.cert, signer: { certPem: leaf.cert, keyPem: leaf.private, intermediatePem: intermediate.cert } };
}

export interface NfeContent {
  key: string;
  issuer: string;
  recipient: string;
  installments: { dueDate: string; value: string }[];
  model?: string;
  issuedAt?: string;
}

const NS = 'http://www.portalfiscal.inf.br/nfe';
const party = (document: string) => (document.length === 11 ? `<CPF>${document}</CPF>` : `<CNPJ>${document}</CNPJ>`);

function nfe(content: NfeContent): string {
  const dups = content.installments.map((dup, i) => `<dup><nDup>${String(i + 1).padStart(3, '0')}</nDup><dVenc>${dup.dueDate}</dVenc><vDup>${dup.value}</vDup></dup>`).join('');
  return `<NFe xmlns="${NS}"><infNFe Id="NFe${content.key}" versao="4.00"><ide><cUF>${content.key.slice(0, 2)}</cUF><mod>${content.model ?? '55'}</mod>`
    + `<serie>1</serie><nNF>1</nNF><dhEmi>${content.issuedAt ?? new Date().toISOString()}</dhEmi><tpAmb>2</tpAmb></ide>`
    + `<emit>${party(content.issuer)}<xNome>Comercial Exemplo Ltda</xNome></emit><dest>${party(content.recipient)}<xNome>Payer Ltda</xNome></dest>`
    + `<total><ICMSTot><vNF>${content.installments[0]?.value ?? '0.00'}</vNF></ICMSTot></total><cobr>${dups}</cobr></infNFe></NFe>`;
}

/** The NFe signed as its issuer does, and the signature's DigestValue. */
export function signNfe(content: NfeContent, signer: NfeSigner): { signed: string; digest: string } {
  const infNfe = "//*[local-name(.)='infNFe']";
  const c14n = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
  const sig = new SignedXml({
    privateKey: signer.keyPem, publicCert: `${signer.certPem.trim()}\n${signer.intermediatePem.trim()}\n`,
    signatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1', canonicalizationAlgorithm: c14n,
  });
  sig.addReference({ xpath: infNfe, transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', c14n], digestAlgorithm: 'http://www.w3.org/2000/09/xmldsig#sha1' });
  sig.computeSignature(nfe(content), { location: { reference: infNfe, action: 'after' } });
  const signed = sig.getSignedXml();
  return { signed, digest: /<DigestValue>([^<]+)<\/DigestValue>/.exec(signed)![1] };
}

/** The procNFe: the signed NFe and SEFAZ's authorization protocol, whose digVal repeats the signed digest (unless `digVal` says otherwise). */
export function procNfe(content: NfeContent, signer: NfeSigner, options: { digVal?: string; edit?: (signed: string) => string } = {}): string {
  const { signed, digest } = signNfe(content, signer);
  const protocol = `<protNFe versao="4.00"><infProt><tpAmb>2</tpAmb><verAplic>SVRS</verAplic><chNFe>${content.key}</chNFe><dhRecbto>${new Date().toISOString()}</dhRecbto>`
    + `<nProt>135260000000001</nProt><digVal>${options.digVal ?? digest}</digVal><cStat>100</cStat><xMotivo>Autorizado o uso da NF-e</xMotivo></infProt></protNFe>`;
  return `<?xml version="1.0" encoding="UTF-8"?><nfeProc xmlns="${NS}" versao="4.00">${(options.edit ?? ((xml) => xml))(signed)}${protocol}</nfeProc>`;
}

export const base64 = (xml: string): string => Buffer.from(xml, 'utf8').toString('base64');
