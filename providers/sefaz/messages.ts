import { gunzipSync } from 'node:zlib';
import { escapeXml, XmlReader } from '../../platform/xml/xml';
import { soapBody, soapEnvelope } from '../../platform/xml/soap';
import { CONSULT_SERVICE, DISTRIBUTION_SERVICE, NFE_NAMESPACE } from '../../domain/sefaz/wire';
import { consultOutcome, distributionOutcome } from '../../domain/sefaz/status-codes';
import { payerEventOfType, type PayerEventSeen } from '../../domain/sefaz/payer-events';
import type { NfeStatusAnswer, PayerEventsAnswer } from '../../domain/sefaz/port';

/** `consSitNFe` 4.00: the status of one key. */
export function consSitNFe(key: string, tpAmb: '1' | '2'): string {
  return `<consSitNFe xmlns="${NFE_NAMESPACE}" versao="${CONSULT_SERVICE.version}"><tpAmb>${tpAmb}</tpAmb><xServ>CONSULTAR</xServ><chNFe>${escapeXml(key)}</chNFe></consSitNFe>`;
}

/** `distDFeInt` 1.01 `consChNFe`: the documents and events of one key a party may see. */
export function distDFeInt(key: string, tpAmb: '1' | '2', party: string): string {
  const who = party.length === 11 ? `<CPF>${escapeXml(party)}</CPF>` : `<CNPJ>${escapeXml(party)}</CNPJ>`;
  return `<distDFeInt xmlns="${NFE_NAMESPACE}" versao="${DISTRIBUTION_SERVICE.version}"><tpAmb>${tpAmb}</tpAmb>${who}<consChNFe><chNFe>${escapeXml(key)}</chNFe></consChNFe></distDFeInt>`;
}

export const consultEnvelope = (key: string, tpAmb: '1' | '2'): string =>
  soapEnvelope(`<nfeDadosMsg xmlns="${CONSULT_SERVICE.namespace}">${consSitNFe(key, tpAmb)}</nfeDadosMsg>`);

export const distributionEnvelope = (key: string, tpAmb: '1' | '2', party: string): string =>
  soapEnvelope(`<nfeDistDFeInteresse xmlns="${DISTRIBUTION_SERVICE.namespace}"><nfeDadosMsg>${distDFeInt(key, tpAmb, party)}</nfeDadosMsg></nfeDistDFeInteresse>`);

type Answer<T> = Omit<T, 'cached' | 'answeredAt'>;

/** `retConsSitNFe` inside `nfeResultMsg`. */
export function readConsultAnswer(text: string, key: string): Answer<NfeStatusAnswer> {
  const ret = soapBody(text, 'NFeConsultaProtocolo4 answer').at('nfeResultMsg').at('retConsSitNFe');
  const cStat = ret.at('cStat').text();
  const protocol = ret.has('protNFe') ? ret.at('protNFe').at('infProt') : null;
  return {
    key,
    cStat,
    reason: ret.at('xMotivo').text(),
    outcome: consultOutcome(cStat),
    authorizedAt: protocol?.textOrNull('dhRecbto') ?? null,
    digestValue: protocol?.textOrNull('digVal') ?? null,
    eventTypes: ret.all('procEventoNFe').map((proc) => proc.at('evento').at('infEvento').at('tpEvento').text()),
  };
}

/** A manifestação inside one `docZip` (gzip, base64): a whole `procEventoNFe`, or its summary `resEvento`. */
function payerEventIn(docZip: XmlReader): PayerEventSeen | null {
  const inner = XmlReader.parse(gunzipSync(Buffer.from(docZip.text(), 'base64')).toString('utf8'), `docZip ${docZip.attribute('NSU') ?? ''}`);
  if (inner.has('procEventoNFe')) {
    const proc = inner.at('procEventoNFe');
    const event = payerEventOfType(proc.at('evento').at('infEvento').at('tpEvento').text());
    if (event === null) return null;
    return { event, at: proc.at('evento').at('infEvento').at('dhEvento').text(), cStat: proc.at('retEvento').at('infEvento').at('cStat').text() };
  }
  if (inner.has('resEvento')) {
    const summary = inner.at('resEvento');
    const event = payerEventOfType(summary.at('tpEvento').text());
    // A summary is only listed once the event is registered.
    return event === null ? null : { event, at: summary.at('dhEvento').text(), cStat: '135' };
  }
  return null;
}

/** `retDistDFeInt` inside `nfeDistDFeInteresseResult`, the payer's manifestações among its documents. */
export function readDistributionAnswer(text: string, key: string): Answer<PayerEventsAnswer> {
  const ret = soapBody(text, 'NFeDistribuicaoDFe answer').at('nfeDistDFeInteresseResponse').at('nfeDistDFeInteresseResult').at('retDistDFeInt');
  const cStat = ret.at('cStat').text();
  const documents = ret.has('loteDistDFeInt') ? ret.at('loteDistDFeInt').all('docZip') : [];
  return {
    key,
    cStat,
    reason: ret.at('xMotivo').text(),
    outcome: distributionOutcome(cStat),
    events: documents.map(payerEventIn).filter((seen): seen is PayerEventSeen => seen !== null),
  };
}
