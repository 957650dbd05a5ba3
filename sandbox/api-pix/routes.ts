import express, { Router } from 'express';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { asBody, oneOf, Refusal } from '../http';
import { lancamentoOf, type CollectionBook, type NewCobv, type ReceivedPix } from './charges';
import { invalidRequest, PixProblem, problemErrors } from './problem';
import { accountLineInput } from '../account-lines';

const TXID = /^[a-zA-Z0-9]{26,35}$/;
const VALOR = /^\d{1,10}\.\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const PERC = /^\d{1,2}\.\d{2}$/;
const REFUND_ID = /^[a-zA-Z0-9]{1,35}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const TOKEN_LIFETIME_S = 3600;

export type Notify = (webhookUrl: string, pix: ReceivedPix[]) => void;

export interface ApiPixOptions {
  client: { id: string; secret: string };
  now: () => Date;
  notify: Notify;
}

function text(body: Record<string, unknown>, field: string, path: string, shape: RegExp | null = null): string {
  const value = body[field];
  if (typeof value !== 'string' || value.trim() === '' || (shape && !shape.test(value))) throw invalidRequest('CobVOperacaoInvalida', `${path}${field}`, 'campo ausente ou fora do formato');
  return value;
}

function cobvInput(raw: unknown): NewCobv {
  const body = asBody(raw);
  const calendario = asBody(body.calendario, 'calendario');
  const devedor = asBody(body.devedor, 'devedor');
  const valor = asBody(body.valor, 'valor');
  const validade = calendario.validadeAposVencimento ?? 30;
  if (!Number.isInteger(validade) || (validade as number) < 0) throw invalidRequest('CobVOperacaoInvalida', 'calendario.validadeAposVencimento', 'deve ser um inteiro não negativo');
  const document = devedor.cpf !== undefined ? { cpf: text(devedor, 'cpf', 'devedor.', /^\d{11}$/) } : { cnpj: text(devedor, 'cnpj', 'devedor.', /^\d{14}$/) };
  const percent = (name: 'multa' | 'juros', modalidade: '2' | '3') => {
    if (valor[name] === undefined) return {};
    const part = asBody(valor[name], `valor.${name}`);
    if (String(part.modalidade) !== modalidade) throw invalidRequest('CobVOperacaoInvalida', `valor.${name}.modalidade`, `modalidade ${modalidade} esperada neste sandbox`);
    return { [name]: { modalidade, valorPerc: text(part, 'valorPerc', `valor.${name}.`, PERC) } };
  };
  return {
    calendario: { dataDeVencimento: text(calendario, 'dataDeVencimento', 'calendario.', DATE), validadeAposVencimento: validade as number },
    devedor: { ...document, nome: text(devedor, 'nome', 'devedor.') },
    valor: { original: text(valor, 'original', 'valor.', VALOR), modalidadeAlteracao: valor.modalidadeAlteracao === 1 ? 1 : 0, ...percent('multa', '2'), ...percent('juros', '3') },
    chave: text(body, 'chave', ''),
    ...(typeof body.solicitacaoPagador === 'string' ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
  };
}

function txidOf(raw: string): string {
  if (!TXID.test(raw)) throw invalidRequest('CobVOperacaoInvalida', 'txid', 'o txid deve ter de 26 a 35 caracteres alfanuméricos');
  return raw;
}

function pageOf(raw: unknown, fallback: number, field: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw invalidRequest('ConsultaInvalida', field, 'deve ser um inteiro não negativo');
  return value;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The collection PSP's API Pix (release 2.9.0 subset) under `/api-pix`: OAuth2 client credentials
 * at `/oauth/token`, the API at `/v2`, and one sandbox extra, `/v2/sandbox/cobv/{txid}/pagamentos`
 * (with the same token), through which a test or an integrator pays a charge as the payer's bank would.
 */
export function apiPixRoutes(book: CollectionBook, options: ApiPixOptions): Router {
  const router = Router();
  const tokens = new Map<string, number>();

  router.post('/oauth/token', express.urlencoded({ extended: false, limit: '10kb' }), (req, res) => {
    const [scheme, encoded] = (req.get('authorization') ?? '').split(' ');
    const [id, secret] = Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':');
    if (scheme !== 'Basic' || !sameText(id ?? '', options.client.id) || !sameText(secret ?? '', options.client.secret)) {
      throw new PixProblem('AcessoNegado', 401, 'Não autorizado', 'credenciais do cliente inválidas');
    }
    if (asBody(req.body).grant_type !== 'client_credentials') throw invalidRequest('RequisicaoInvalida', 'grant_type', 'somente client_credentials');
    const token = randomBytes(24).toString('base64url');
    tokens.set(token, Date.now() + TOKEN_LIFETIME_S * 1000);
    res.json({ access_token: token, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_S, scope: 'cobv.write cobv.read pix.read pix.write webhook.write webhook.read' });
  });

  const api = Router();
  api.use((req, _res, next) => {
    const [scheme, token] = (req.get('authorization') ?? '').split(' ');
    const until = scheme === 'Bearer' && token ? tokens.get(token) : undefined;
    if (until === undefined || until < Date.now()) throw new PixProblem('AcessoNegado', 401, 'Não autorizado', 'token de acesso ausente, inválido ou expirado');
    next();
  });
  api.put('/cobv/:txid', (req, res) => {
    res.status(201).json(book.put(txidOf(req.params.txid), cobvInput(req.body), options.now()));
  });
  api.get('/cobv/:txid', (req, res) => {
    res.json(book.get(txidOf(req.params.txid)));
  });
  api.patch('/cobv/:txid', (req, res) => {
    const body = asBody(req.body);
    const change: Parameters<CollectionBook['patch']>[1] = {};
    if (body.status !== undefined) change.status = oneOf(body, 'status', ['REMOVIDA_PELO_USUARIO_RECEBEDOR'] as const);
    if (body.valor !== undefined) change.valor = { original: text(asBody(body.valor, 'valor'), 'original', 'valor.', VALOR) };
    res.json(book.patch(txidOf(req.params.txid), change));
  });
  api.get('/pix', (req, res) => {
    const inicio = new Date(String(req.query.inicio ?? ''));
    const fim = new Date(String(req.query.fim ?? ''));
    if (Number.isNaN(inicio.getTime()) || Number.isNaN(fim.getTime())) throw invalidRequest('ConsultaInvalida', 'inicio', 'inicio e fim são obrigatórios (RFC 3339)');
    const pix = book.pixBetween(inicio, fim);
    res.json({
      parametros: { inicio: inicio.toISOString(), fim: fim.toISOString(), paginacao: { paginaAtual: 0, itensPorPagina: pix.length, quantidadeDePaginas: 1, quantidadeTotalDeItens: pix.length } },
      pix,
    });
  });
  api.get('/pix/:e2eid', (req, res) => {
    res.json(book.pix(req.params.e2eid));
  });
  api.put('/pix/:e2eid/devolucao/:id', (req, res) => {
    if (!REFUND_ID.test(req.params.id)) throw invalidRequest('PixDevolucaoInvalida', 'id', 'de 1 a 35 caracteres alfanuméricos');
    const valor = text(asBody(req.body), 'valor', '', VALOR);
    const { devolucao, created } = book.refund(req.params.e2eid, req.params.id, valor, options.now());
    res.status(created ? 201 : 200).json(devolucao);
  });
  api.put('/webhook/:chave', (req, res) => {
    const url = text(asBody(req.body), 'webhookUrl', '');
    if (!URL.canParse(url)) throw invalidRequest('WebhookOperacaoInvalida', 'webhookUrl', 'deve ser uma URL absoluta');
    book.setWebhook(req.params.chave, url);
    res.json({ webhookUrl: url, chave: req.params.chave, criacao: options.now().toISOString() });
  });
  api.get('/webhook/:chave', (req, res) => {
    const url = book.webhookOf(req.params.chave);
    if (!url) throw new PixProblem('WebhookNaoEncontrado', 404, 'Webhook não encontrado', `nenhum webhook para a chave ${req.params.chave}`);
    res.json({ webhookUrl: url, chave: req.params.chave });
  });
  // Not an API Pix route (API Pix has none for balances): the account's statement, as PSPs' own
  // statement APIs give it, paged like API Pix's lists.
  api.get('/sandbox/extrato', (req, res) => {
    const inicio = new Date(String(req.query.inicio ?? ''));
    const fim = new Date(String(req.query.fim ?? ''));
    if (Number.isNaN(inicio.getTime()) || Number.isNaN(fim.getTime())) throw invalidRequest('ConsultaInvalida', 'inicio', 'inicio e fim são obrigatórios (RFC 3339)');
    const page = pageOf(req.query['paginacao.paginaAtual'], 0, 'paginacao.paginaAtual');
    const size = Math.min(pageOf(req.query['paginacao.itensPorPagina'], 100, 'paginacao.itensPorPagina'), 1000) || 100;
    const { lancamentos, saldoFinal } = book.extrato(inicio, fim);
    res.json({
      parametros: {
        inicio: inicio.toISOString(), fim: fim.toISOString(),
        paginacao: { paginaAtual: page, itensPorPagina: size, quantidadeDePaginas: Math.ceil(lancamentos.length / size), quantidadeTotalDeItens: lancamentos.length },
      },
      saldoFinal,
      lancamentos: lancamentos.slice(page * size, (page + 1) * size),
    });
  });
  // Not an API Pix route: books a top-up, a sweep or a fee on the account now, as `extrato` lists it.
  api.post('/sandbox/lancamentos', (req, res) => {
    res.status(201).json(lancamentoOf(book.accountLines.add(accountLineInput(req.body), options.now())));
  });
  // Not an API Pix route: the payer's bank pays, at `horario` (a test clock's time) or now.
  // `webhook` once (default), twice (a repeat) or lost (none sent).
  api.post('/sandbox/cobv/:txid/pagamentos', (req, res) => {
    const body = asBody(req.body ?? {});
    const valor = body.valor === undefined || body.valor === null ? null : text(body, 'valor', '', VALOR);
    const webhook = body.webhook === undefined ? 'once' : oneOf(body, 'webhook', ['once', 'twice', 'lost'] as const);
    const now = options.now();
    const horario = body.horario === undefined || body.horario === null ? now : new Date(text(body, 'horario', '', RFC3339));
    notifyReceived(book.pay(txidOf(req.params.txid), valor, horario, now), webhook, res);
  });
  // Not an API Pix route either: a payer sends a PIX straight to the key, paying no charge.
  api.post('/sandbox/pix', (req, res) => {
    const body = asBody(req.body ?? {});
    const webhook = body.webhook === undefined ? 'once' : oneOf(body, 'webhook', ['once', 'twice', 'lost'] as const);
    const infoPagador = body.infoPagador === undefined ? null : text(body, 'infoPagador', '');
    const now = options.now();
    notifyReceived(book.receive(text(body, 'chave', ''), text(body, 'valor', '', VALOR), infoPagador, now, now), webhook, res);
  });
  function notifyReceived(pix: ReceivedPix, webhook: 'once' | 'twice' | 'lost', res: express.Response): void {
    const url = book.webhookOf(pix.chave);
    if (url && webhook !== 'lost') for (let sent = 0; sent < (webhook === 'twice' ? 2 : 1); sent += 1) options.notify(url, [pix]);
    res.status(201).json(pix);
  }
  router.use('/v2', api);

  router.use((_req, _res, next) => next(new Refusal(404, 'not_found', 'rota não encontrada')));
  router.use(problemErrors);
  return router;
}
