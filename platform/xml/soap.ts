import { escapeXml, XmlError, XmlReader } from './xml';

/** SOAP 1.2, as SEFAZ's web services speak it. */
export const SOAP12_NAMESPACE = 'http://www.w3.org/2003/05/soap-envelope';

export const soapContentType = (action: string): string => `application/soap+xml; charset=utf-8; action="${action}"`;

export function soapEnvelope(body: string): string {
  return `<?xml version="1.0" encoding="utf-8"?><soap12:Envelope xmlns:soap12="${SOAP12_NAMESPACE}"><soap12:Body>${body}</soap12:Body></soap12:Envelope>`;
}

export function soapFault(reason: string): string {
  return soapEnvelope(`<soap12:Fault><soap12:Code><soap12:Value>soap12:Sender</soap12:Value></soap12:Code><soap12:Reason><soap12:Text xml:lang="en">${escapeXml(reason)}</soap12:Text></soap12:Reason></soap12:Fault>`);
}

/** The Body of a SOAP 1.2 message; a Fault throws with its reason. */
export function soapBody(text: string, what: string): XmlReader {
  const body = XmlReader.parse(text, what).at('Envelope').at('Body');
  if (body.has('Fault')) {
    const fault = body.at('Fault');
    const reason = fault.has('Reason') ? fault.at('Reason').textOrNull('Text') : null;
    throw new XmlError(`${what} is a SOAP fault: ${reason ?? 'no reason given'}`);
  }
  return body;
}
