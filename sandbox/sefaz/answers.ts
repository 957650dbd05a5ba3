import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { NFE_NAMESPACE, CANCELLATION_EVENT } from '../../domain/sefaz/wire';
import { NOT_A_PARTYS_CERTIFICATE } from '../../domain/sefaz/status-codes';
import { PAYER_EVENT_TYPES, type PayerEvent } from '../../domain/sefaz/payer-events';
import type { NfeRecord } from './nfe-book';

/**
 * The sandbox SEFAZ's answers, in the official layouts (retConsSitNFe 4.00, retDistDFeInt 1.01,
 * procEventoNFe 1.00): tests validate them against the published XSDs, and the production adapter
 * reads them as it reads SEFAZ's.
 */
const VER_APLIC = 'SANDBOX_1.0';
const NATIONAL = '91';

/** SEFAZ writes times in Brasília's offset, to the second (`TDateTimeUTC`). */
export function brasilia(iso: string): string {
  const shifted = new Date(Date.parse(iso) - 3 * 3_600_000).toISOString();
  return `${shifted.slice(0, 19)}-03:00`;
}

const digits = (seed: string, length: number) => BigInt(`0x${createHash('sha256').update(seed).digest('hex')}`).toString().slice(0, length).padStart(length, '0');
const protocolOf = (key: string, what: string) => `1${key.slice(0, 2)}${digits(`${what}:${key}`, 12)}`;
/** The signed digest SEFAZ's protocol repeats; here a stand-in derived from the key. */
const digestOf = (key: string) => createHash('sha1').update(key).digest('base64');

/**
 * An `evento`'s signature element in the layout's shape. The sandbox signs nothing: its values are
 * stand-ins, and no reader of these answers verifies an event's signature (they come over TLS from SEFAZ).
 */
function signature(id: string): string {
  const value = (seed: string) => createHash('sha1').update(seed).digest('base64');
  return `<Signature xmlns="http://www.w3.org/2000/09/xmldsig#"><SignedInfo><CanonicalizationMethod Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/>`
    + '<SignatureMethod Algorithm="http://www.w3.org/2000/09/xmldsig#rsa-sha1"/>'
    + `<Reference URI="#${id}"><Transforms><Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/><Transform Algorithm="http://www.w3.org/TR/2001/REC-xml-c14n-20010315"/></Transforms>`
    + `<DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/><DigestValue>${value(id)}</DigestValue></Reference></SignedInfo>`
    + `<SignatureValue>${value(`signature:${id}`)}</SignatureValue><KeyInfo><X509Data><X509Certificate>${Buffer.from('sandbox certificate').toString('base64')}</X509Certificate></X509Data></KeyInfo></Signature>`;
}

interface EventFacts {
  key: string;
  tpAmb: string;
  type: string;
  description: string;
  /** The author's CNPJ: the issuer for a cancellation, the payer for a manifestação. */
  author: string;
  at: string;
  organ: string;
  detail: string;
}

/** An event with SEFAZ's registration of it (`retEvento` 135: registered and linked to the NF-e). */
function procEvento({ key, tpAmb, type, description, author, at, organ, detail }: EventFacts, namespace: string): string {
  const id = `ID${type}${key}01`;
  const when = brasilia(at);
  return `<procEventoNFe${namespace} versao="1.00"><evento versao="1.00"><infEvento Id="${id}"><cOrgao>${organ}</cOrgao><tpAmb>${tpAmb}</tpAmb><CNPJ>${author}</CNPJ>`
    + `<chNFe>${key}</chNFe><dhEvento>${when}</dhEvento><tpEvento>${type}</tpEvento><nSeqEvento>1</nSeqEvento><verEvento>1.00</verEvento>`
    + `<detEvento versao="1.00"><descEvento>${description}</descEvento>${detail}</detEvento></infEvento>${signature(id)}</evento>`
    + `<retEvento versao="1.00"><infEvento><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cOrgao>${organ}</cOrgao><cStat>135</cStat>`
    + `<xMotivo>Evento registrado e vinculado a NF-e</xMotivo><chNFe>${key}</chNFe><tpEvento>${type}</tpEvento><xEvento>${description}</xEvento>`
    + `<nSeqEvento>1</nSeqEvento><dhRegEvento>${when}</dhRegEvento><nProt>${protocolOf(key, type)}</nProt></infEvento></retEvento></procEventoNFe>`;
}

const STATUS_ANSWERS = {
  authorized: { cStat: '100', xMotivo: 'Autorizado o uso da NF-e' },
  cancelled: { cStat: '101', xMotivo: 'Cancelamento de NF-e homologado' },
  denied: { cStat: '110', xMotivo: 'Uso Denegado' },
  unknown: { cStat: '217', xMotivo: 'Rejeicao: NF-e nao consta na base de dados da SEFAZ' },
  too_old: { cStat: '526', xMotivo: 'Rejeicao: Ano-Mes da Chave de Acesso com atraso superior a 6 meses em relacao ao Ano-Mes atual' },
} as const;

const OUTAGE = { cStat: '109', xMotivo: 'Servico Paralisado sem Previsao' };

function protocol(record: NfeRecord, key: string, tpAmb: string): string {
  const denied = record.status === 'denied';
  return `<protNFe versao="4.00"><infProt><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><chNFe>${key}</chNFe><dhRecbto>${brasilia(record.authorizedAt)}</dhRecbto>`
    + `<nProt>${protocolOf(key, 'authorization')}</nProt><digVal>${digestOf(key)}</digVal><cStat>${denied ? '110' : '100'}</cStat>`
    + `<xMotivo>${denied ? STATUS_ANSWERS.denied.xMotivo : STATUS_ANSWERS.authorized.xMotivo}</xMotivo></infProt></protNFe>`;
}

/** `retConsSitNFe` for a key (`record` null: the service is paused). */
export function retConsSitNFe(key: string, tpAmb: string, record: NfeRecord | null, now: Date): string {
  const { cStat, xMotivo } = record === null ? OUTAGE : STATUS_ANSWERS[record.status];
  // SEFAZ shows the protocol of an NF-e it knows and still consults.
  const known = record !== null && record.status !== 'unknown' && record.status !== 'too_old';
  const cancellation = record?.status === 'cancelled'
    ? procEvento({ key, tpAmb, type: CANCELLATION_EVENT, description: 'Cancelamento', author: key.slice(6, 20), at: record.statusAt, organ: key.slice(0, 2), detail: `<nProt>${protocolOf(key, 'authorization')}</nProt><xJust>Cancelada pelo emitente no sandbox</xJust>` }, '')
    : '';
  return `<retConsSitNFe xmlns="${NFE_NAMESPACE}" versao="4.00"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo>`
    + `<cUF>${key.slice(0, 2)}</cUF><dhRecbto>${brasilia(now.toISOString())}</dhRecbto><chNFe>${key}</chNFe>${known ? protocol(record, key, tpAmb) : ''}${cancellation}</retConsSitNFe>`;
}

const PAYER_DESCRIPTIONS: Record<PayerEvent, string> = {
  confirmed: 'Confirmacao da Operacao',
  aware: 'Ciencia da Operacao',
  unknown_operation: 'Desconhecimento da Operacao',
  not_performed: 'Operacao nao Realizada',
};

/** The sandbox's payer: every manifestação is registered by this CNPJ. */
export const SANDBOX_PAYER_CNPJ = '11222333000181';

/** A payer's manifestação as the distribution hands it to a party: a whole `procEventoNFe`. */
export function payerProcEvento(key: string, tpAmb: string, event: PayerEvent, at: string): string {
  const detail = event === 'not_performed' ? '<xJust>Operacao nao realizada segundo o pagador (sandbox)</xJust>' : '';
  return procEvento({ key, tpAmb, type: PAYER_EVENT_TYPES[event], description: PAYER_DESCRIPTIONS[event], author: SANDBOX_PAYER_CNPJ, at, organ: NATIONAL, detail }, ` xmlns="${NFE_NAMESPACE}"`);
}

const NSU = (n: number) => String(n).padStart(15, '0');

function distributionStatus(record: NfeRecord | null, found: boolean): { cStat: string; xMotivo: string } {
  if (record === null) return OUTAGE;
  if (record.issuerCertificate === 'not_delegated') return NOT_A_PARTYS_CERTIFICATE;
  return found ? { cStat: '138', xMotivo: 'Documento localizado' } : { cStat: '137', xMotivo: 'Nenhum documento localizado' };
}

/**
 * `retDistDFeInt` for `consChNFe` (`record` null: the service is paused); 138 with the payer's
 * manifestação, else 137; 593 when the key's issuer did not delegate its certificate.
 */
export function retDistDFeInt(key: string, tpAmb: string, record: NfeRecord | null, now: Date): string {
  const shown = record?.issuerCertificate !== 'not_delegated';
  const found = shown && record?.payerEvent && record.payerEventAt ? payerProcEvento(key, tpAmb, record.payerEvent, record.payerEventAt) : null;
  const { cStat, xMotivo } = distributionStatus(record, found !== null);
  const batch = found ? `<loteDistDFeInt><docZip NSU="${NSU(1)}" schema="procEventoNFe_v1.00.xsd">${gzipSync(found).toString('base64')}</docZip></loteDistDFeInt>` : '';
  return `<retDistDFeInt xmlns="${NFE_NAMESPACE}" versao="1.01"><tpAmb>${tpAmb}</tpAmb><verAplic>${VER_APLIC}</verAplic><cStat>${cStat}</cStat><xMotivo>${xMotivo}</xMotivo>`
    + `<dhResp>${brasilia(now.toISOString())}</dhResp><ultNSU>${NSU(found ? 1 : 0)}</ultNSU><maxNSU>${NSU(found ? 1 : 0)}</maxNSU>${batch}</retDistDFeInt>`;
}
