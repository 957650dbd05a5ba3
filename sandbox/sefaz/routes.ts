import express, { Router } from 'express';
import { soapBody, soapEnvelope, soapFault } from '../../platform/xml/soap';
import { CONSULT_SERVICE, DISTRIBUTION_SERVICE } from '../../domain/sefaz/wire';
import { PAYER_EVENT_TYPES, type PayerEvent } from '../../domain/sefaz/payer-events';
import { asBody, oneOf, Refusal } from '../http';
import { ISSUER_CERTIFICATES, NFE_STATUSES } from '../../domain/sefaz/status-codes';
import type { NfeBook } from './nfe-book';
import { retConsSitNFe, retDistDFeInt } from './answers';

/** domain/nfe-key.ts's shape: digits, the issuer's alphanumeric CNPJ inside. */
const KEY = /^\d{6}[0-9A-Z]{12}\d{26}$/;
const PAYER_EVENTS = Object.keys(PAYER_EVENT_TYPES) as PayerEvent[];
const SOAP = 'application/soap+xml; charset=utf-8';

/** The request's `tpAmb` and `chNFe`, wherever the message keeps them; a malformed one is a SOAP fault, as at SEFAZ. */
function requestOf(text: string, message: 'consSitNFe' | 'distDFeInt') {
  const body = soapBody(text, 'request');
  const inner = message === 'consSitNFe' ? body.at('nfeDadosMsg').at('consSitNFe') : body.at('nfeDistDFeInteresse').at('nfeDadosMsg').at('distDFeInt');
  const key = message === 'consSitNFe' ? inner.at('chNFe').text() : inner.at('consChNFe').at('chNFe').text();
  return { tpAmb: inner.at('tpAmb').text(), key };
}

/**
 * SEFAZ's two web services as the production adapter calls them (`/NFeConsultaProtocolo4`,
 * `/NFeDistribuicaoDFe`), and the controls integrators drive them with (`/sandbox/...`, reached
 * through the api's `/v1/sandbox/nfe/{key}` and `/v1/sandbox/sefaz/outage`).
 */
export function sefazRoutes(book: NfeBook, now: () => Date): Router {
  const router = Router();
  const soap = express.text({ type: ['application/soap+xml', 'text/xml'], limit: '100kb' });

  const answer = (message: 'consSitNFe' | 'distDFeInt', wrap: (inner: string) => string, build: typeof retConsSitNFe): express.RequestHandler => (req, res) => {
    let request: { tpAmb: string; key: string };
    try {
      request = requestOf(typeof req.body === 'string' ? req.body : '', message);
    } catch (err) {
      res.status(500).type(SOAP).send(soapFault((err as Error).message));
      return;
    }
    const record = book.inOutage() ? null : book.of(request.key);
    res.type(SOAP).send(soapEnvelope(wrap(build(request.key, request.tpAmb, record, now()))));
  };

  router.post('/NFeConsultaProtocolo4', soap, answer('consSitNFe', (inner) => `<nfeResultMsg xmlns="${CONSULT_SERVICE.namespace}">${inner}</nfeResultMsg>`, retConsSitNFe));
  router.post('/NFeDistribuicaoDFe', soap, answer('distDFeInt',
    (inner) => `<nfeDistDFeInteresseResponse xmlns="${DISTRIBUTION_SERVICE.namespace}"><nfeDistDFeInteresseResult>${inner}</nfeDistDFeInteresseResult></nfeDistDFeInteresseResponse>`, retDistDFeInt));

  router.post('/sandbox/nfe/:key', (req, res) => {
    const key = String(req.params.key);
    if (!KEY.test(key)) throw new Refusal(422, 'invalid_nfe_key', 'the key must have 44 characters: digits, and the issuer\'s CNPJ (alphanumeric) inside');
    const body = asBody(req.body);
    const status = oneOf(body, 'status', NFE_STATUSES);
    const payerEvent = body.payer_event === undefined || body.payer_event === null ? null : oneOf(body, 'payer_event', PAYER_EVENTS);
    const issuerCertificate = body.issuer_certificate === undefined ? 'delegated' : oneOf(body, 'issuer_certificate', ISSUER_CERTIFICATES);
    const record = book.set(key, status, payerEvent, issuerCertificate);
    res.json({ nfe_key: key, status: record.status, payer_event: record.payerEvent, issuer_certificate: issuerCertificate });
  });

  router.post('/sandbox/outage', (req, res) => {
    const seconds = asBody(req.body).seconds;
    if (!Number.isInteger(seconds) || (seconds as number) < 0) throw new Refusal(422, 'invalid_seconds', 'seconds must be a whole number of seconds, 0 or more');
    res.json({ until: book.startOutage(seconds as number) });
  });

  return router;
}
