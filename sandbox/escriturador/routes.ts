import { Router, type RequestHandler } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { NEGOTIATION_TYPES } from '../../domain/escriturador/negotiation';
import type { Act, Duplicata } from '../../domain/escriturador/port';
import { asBody, list, oneOf, optionalUrl, Refusal, requiredText } from '../http';
import type { EscrituradorBook, NewInstallment } from './book';

const AMOUNT = /^(?!0+\.00$)\d{1,15}\.\d{2}$/;
const NFE_KEY = /^\d{6}[0-9A-Z]{12}\d{26}$/;
const CNPJ = /^[0-9A-Z]{12}\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function matching(body: Record<string, unknown>, field: string, shape: RegExp, what: string): string {
  const value = requiredText(body, field);
  if (!shape.test(value)) throw new Refusal(422, 'invalid_request', `${field} must be ${what}`);
  return value;
}

const nfeKeyOf = (body: Record<string, unknown>, field = 'chave_nfe') => matching(body, field, NFE_KEY, 'an NF-e access key of 44 characters');
const cnpjOf = (body: Record<string, unknown>, field: string) => matching(body, field, CNPJ, 'a CNPJ without punctuation');
const amountOf = (body: Record<string, unknown>, field = 'valor') => matching(body, field, AMOUNT, 'a positive amount with two decimals');

function keyOf(header: string | undefined): string {
  if (!header) throw new Refusal(400, 'idempotency_key_required', 'acts and payments need an Idempotency-Key header');
  return header;
}

export function presentDuplicata(d: Duplicata) {
  return {
    id: d.duplicataId, chave_nfe: d.nfeKey, n_dup: d.installment, vencimento: d.dueDate, valor: d.value, sacador: d.issuerDocument, titular: d.holderDocument,
    gravames: d.liens.map((lien) => ({ ato_id: lien.actId, ordem: lien.rank, beneficiario: lien.beneficiaryDocument })),
    aceite: d.payerAcceptance, valor_pago: d.paidAmount, liquidada: d.settled,
  };
}

export function presentAct(act: Act) {
  return {
    id: act.actId, duplicata_id: act.duplicataId, tipo: act.kind === 'transfer' ? 'endosso' : 'endosso_penhor', tipo_negociacao: act.negotiationType,
    de: act.fromDocument, para: act.toDocument, situacao: act.status === 'registered' ? 'registrado' : 'cancelado', registrado_em: act.registeredAt, cancelado_em: act.cancelledAt,
  };
}

/** Bearer with the account's API key, compared in constant time. */
function authorised(apiKey: string): RequestHandler {
  const expected = Buffer.from(`Bearer ${apiKey}`);
  return (req, _res, next) => {
    const given = Buffer.from(req.get('authorization') ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new Refusal(401, 'unauthorized', 'a valid API key is required (Authorization: Bearer <key>)');
    next();
  };
}

/**
 * The sandbox escriturador, shaped like a real one's public API: escrituração (the duplicatas, and
 * payments informed) apart from registro (endorsements, pledge endorsements, cancelling an act),
 * behind its own API key. `/sandbox/*` are its controls for integrators. During an outage every
 * other request's connection is dropped unanswered, as a host that is down would.
 */
export function escrituradorRoutes(book: EscrituradorBook, options: { apiKey: string; now: () => Date }): Router {
  const router = Router();
  let outageUntil = 0;

  router.use((req, _res, next) => {
    if (!req.path.startsWith('/sandbox/') && options.now().getTime() < outageUntil) {
      req.socket.destroy();
      return;
    }
    next();
  });
  router.use(authorised(options.apiKey));

  router.get('/escrituracao/duplicatas', (req, res) => {
    const key = nfeKeyOf(req.query as Record<string, unknown>);
    res.json({ duplicatas: book.lookup(key).map(presentDuplicata) });
  });

  router.get('/escrituracao/duplicatas/:id', (req, res) => {
    const duplicata = book.find(req.params.id);
    res.json({ duplicata: presentDuplicata(duplicata), atos: book.actsOf(duplicata.duplicataId).map(presentAct) });
  });

  router.post('/escrituracao/duplicatas/:id/pagamentos', (req, res) => {
    const body = asBody(req.body);
    const paidAt = requiredText(body, 'data_pagamento');
    if (Number.isNaN(Date.parse(paidAt))) throw new Refusal(422, 'invalid_request', 'data_pagamento must be a date-time');
    res.json({ duplicata: presentDuplicata(book.pay(req.params.id, amountOf(body), paidAt, keyOf(req.get('idempotency-key')), 'holder')) });
  });

  router.post('/registro/endossos', (req, res) => {
    const body = asBody(req.body);
    const { act, replayed } = book.negotiate({
      kind: 'transfer', duplicataId: requiredText(body, 'duplicata_id'), fromDocument: cnpjOf(body, 'endossante'), toDocument: cnpjOf(body, 'endossatario'),
      negotiationType: oneOf(body, 'tipo_negociacao', NEGOTIATION_TYPES),
    }, keyOf(req.get('idempotency-key')));
    res.status(replayed ? 200 : 201).json({ ato: presentAct(act) });
  });

  router.post('/registro/endossos-penhor', (req, res) => {
    const body = asBody(req.body);
    const { act, replayed } = book.negotiate({
      kind: 'lien', duplicataId: requiredText(body, 'duplicata_id'), fromDocument: cnpjOf(body, 'endossante'), toDocument: cnpjOf(body, 'endossatario'),
    }, keyOf(req.get('idempotency-key')));
    res.status(replayed ? 200 : 201).json({ ato: presentAct(act) });
  });

  // Cancelling is idempotent by nature (a cancelled act stays cancelled); the key is still required, as for every act.
  router.post('/registro/atos/:id/cancelamento', (req, res) => {
    keyOf(req.get('idempotency-key'));
    res.json({ ato: presentAct(book.cancel(req.params.id)) });
  });

  router.put('/registro/webhook', (req, res) => {
    book.webhookUrl = optionalUrl(asBody(req.body), 'url');
    res.json({ url: book.webhookUrl });
  });

  router.post('/sandbox/transferencias', (req, res) => {
    const body = asBody(req.body);
    res.json({ duplicatas: book.transferAway(nfeKeyOf(body), cnpjOf(body, 'titular')).map(presentDuplicata) });
  });

  router.post('/sandbox/liquidacoes', (req, res) => {
    const body = asBody(req.body);
    const installment = body.n_dup === undefined || body.n_dup === null ? null : requiredText(body, 'n_dup');
    res.status(201).json({ duplicata: presentDuplicata(book.payerPays(nfeKeyOf(body), installment, amountOf(body))) });
  });

  router.post('/sandbox/duplicatas', (req, res) => {
    const body = asBody(req.body);
    const installments: NewInstallment[] = list(body, 'parcelas').map((item) => ({
      installment: requiredText(item, 'n_dup'), dueDate: matching(item, 'vencimento', DATE, 'a date (YYYY-MM-DD)'), value: amountOf(item),
    }));
    res.status(201).json({ duplicatas: book.issue(nfeKeyOf(body), installments).map(presentDuplicata) });
  });

  router.post('/sandbox/outage', (req, res) => {
    const seconds = asBody(req.body).seconds;
    if (!Number.isInteger(seconds) || (seconds as number) < 0) throw new Refusal(422, 'invalid_request', 'seconds must be a whole number >= 0');
    outageUntil = options.now().getTime() + (seconds as number) * 1000;
    res.json({ until: new Date(outageUntil).toISOString() });
  });

  return router;
}
