import express from 'express';
import type { Server } from 'node:http';
import { createLogger } from '../platform/logger';
import { Background } from './background';
import { SANDBOX_DEFAULTS, SandboxConfig } from './config';
import { EsignBook, EsignDocument, Signer } from './esign/documents';
import { esignRoutes } from './esign/routes';
import { signingPage } from './esign/signing-page';
import { notFound, sandboxErrors } from './http';
import { FaultBook, MAGIC_EFFECTS } from './magic';
import { Payment, PixLedger } from './pix/payments';
import { pixRoutes } from './pix/routes';
import { CollectionBook } from './api-pix/charges';
import { apiPixRoutes } from './api-pix/routes';
import { StateFile } from './state-file';
import { MailBook, mailRoutes } from './mail/mailbox';
import { NfeBook } from './sefaz/nfe-book';
import { sefazRoutes } from './sefaz/routes';
import { EscrituradorBook } from './escriturador/book';
import { escrituradorRoutes, presentAct } from './escriturador/routes';
import type { EscrituradorEvent } from '../domain/escriturador/port';
import { observeHttpRequest, registry } from '../platform/telemetry/registry';

const MOUNTS = ['/esign', '/pix', '/api-pix', '/mail', '/sefaz', '/escriturador'];

/** The matched route's template under its mount point (one of MOUNTS), or `unmatched`. */
function routeOf(req: express.Request): string {
  if (!req.route) return 'unmatched';
  const mount = MOUNTS.find((prefix) => req.originalUrl.startsWith(`${prefix}/`)) ?? '';
  return `${mount}${String(req.route.path)}`;
}

export interface RunningSandbox {
  url: string;
  esignUrl: string;
  pixUrl: string;
  /** The collection PSP's API Pix base (`…/api-pix/v2`); its token endpoint is `…/api-pix/oauth/token`. */
  apiPixUrl: string;
  /** Staff e-mail's relay (`POST …/messages`) and mailbox (`GET …/mailbox?to=`). */
  mailUrl: string;
  /** SEFAZ's two web services and the sandbox's controls of them, under `…/sefaz`. */
  sefazUrl: string;
  /** The escriturador's API base (`…/escriturador`), its controls under `…/escriturador/sandbox`. */
  escrituradorUrl: string;
  close(): Promise<void>;
}

function signatureCallback(document: EsignDocument, signer: Signer) {
  return {
    event: 'signer.signed',
    document_id: document.id,
    external_reference: document.reference,
    document_status: document.status,
    signer: { id: signer.id, name: signer.name, email: signer.email, status: signer.status, signed_at: signer.signedAt },
  };
}

function settlementCallback(payment: Payment) {
  return {
    payment_id: payment.id,
    idempotency_key: payment.idempotencyKey,
    status: payment.status,
    amount: payment.amount,
    settled_amount: payment.settledAmount,
    rejection_reason: payment.rejectionReason,
    settled_at: payment.settledAt,
  };
}

/** The escriturador's webhook body: snake_case, as its API answers. */
function escrituradorEvent(event: EscrituradorEvent) {
  if (event.type !== 'duplicata.settled') return { evento: event.type, id: event.eventId, ato: presentAct(event.act) };
  return {
    evento: event.type, id: event.eventId, duplicata_id: event.duplicataId, chave_nfe: event.nfeKey, n_dup: event.installment, titular: event.holderDocument,
    valor: event.amount, valor_pago: event.paidAmount, liquidada: event.settled, data_pagamento: event.paidAt,
    origem: event.origin === 'payer' ? 'boleto' : 'informado',
  };
}

/**
 * The simulated e-sign and PIX providers on one port, under `/esign` and `/pix`. With a
 * `stateFile` every document, payment, e-mail and magic counter survives a restart; without one
 * (tests) they live in memory.
 */
export async function startSandbox(options: Partial<SandboxConfig> & Pick<SandboxConfig, 'callbackSecrets'>): Promise<RunningSandbox> {
  const config: SandboxConfig = { ...SANDBOX_DEFAULTS, ...options };
  const logger = createLogger(config.logLevel, 'sandbox');
  const background = new Background(
    { attempts: config.callbackAttempts, retryDelayMs: config.callbackRetryDelayMs, timeoutMs: config.callbackTimeoutMs },
    logger,
  );
  const faults = new FaultBook();
  let baseUrl = config.publicUrl ?? '';

  const book = new EsignBook(faults, (document, signer) => {
    const url = document.callbackUrl ?? config.esignCallbackUrl;
    if (url) background.notify(url, signatureCallback(document, signer), config.callbackSecrets.esign, { document_id: document.id, signer_id: signer.id });
  });
  const ledger = new PixLedger(faults, background, { normalMs: config.settlementDelayMs, slowMs: config.slowSettlementDelayMs }, (payment) => {
    const url = payment.callbackUrl ?? config.pixCallbackUrl;
    save();
    if (url) background.notify(url, settlementCallback(payment), config.callbackSecrets.pix, { payment_id: payment.id });
  });
  const collection = new CollectionBook(() => `${new URL(baseUrl).host}/api-pix/qr/v2`, { nome: 'Receivables Sandbox PSP', cidade: 'SAO PAULO' });
  const mail = new MailBook();
  const nfes = new NfeBook(() => new Date());
  const duplicatas = new EscrituradorBook(() => new Date(), (event) => {
    const url = duplicatas.webhookUrl;
    const secret = config.registrar.webhookSecret;
    if (url && secret) background.notify(url, escrituradorEvent(event), secret, { event_id: event.eventId });
  });
  const stateFile = config.stateFile ? new StateFile(config.stateFile) : null;
  function save(): void {
    stateFile?.save({
      esign: book.snapshot(), pix: ledger.snapshot(), faults: faults.snapshot(), collection: collection.snapshot(),
      mail: mail.snapshot(), sefaz: nfes.snapshot(), escriturador: duplicatas.snapshot(),
    });
  }
  const saved = stateFile?.load();
  if (saved) {
    book.restore(saved.esign);
    ledger.restore(saved.pix);
    faults.restore(saved.faults);
    collection.restore(saved.collection);
    mail.restore(saved.mail);
    if (saved.sefaz) nfes.restore(saved.sefaz);
    if (saved.escriturador) duplicatas.restore(saved.escriturador);
  }

  const app = express();
  app.disable('x-powered-by');
  // Timed by the route the request matched (`/pix/payments/:id`), never by its path. The router has
  // given back its mount point by the time the answer is sent, so the route is read when it matched.
  app.use((req, res, next) => {
    const started = performance.now();
    res.on('finish', () => observeHttpRequest(req.method, routeOf(req), res.statusCode, (performance.now() - started) / 1000));
    next();
  });
  // Like a real provider's, on the sandbox's own port: Prometheus scrapes it in the cluster.
  app.get('/metrics', (_req, res, next) => {
    registry.metrics().then((text) => res.type(registry.contentType).send(text), next);
  });
  app.use(express.json({ limit: '100kb' }));
  // Every answer leaves after the state it acknowledges is on disk (reads count magic values too).
  app.use((_req, res, next) => {
    const send = res.send.bind(res);
    res.send = (body) => {
      save();
      return send(body);
    };
    next();
  });
  app.get('/', (_req, res) => {
    res.json({ esign: `${baseUrl}/esign`, pix: `${baseUrl}/pix`, mailbox: `${baseUrl}/mail/mailbox?to=<email>`, sefaz: `${baseUrl}/sefaz`, escriturador: `${baseUrl}/escriturador`, state: stateFile ? 'kept in a file: a restart forgets nothing' : 'in memory: a restart forgets everything', magic_values: MAGIC_EFFECTS });
  });
  app.use('/esign', esignRoutes(book, (signer) => `${baseUrl}/esign/sign/${signer.token}`), signingPage(book));
  app.use('/pix', pixRoutes(ledger));
  app.use('/api-pix', apiPixRoutes(collection, {
    client: { id: config.collection.clientId, secret: config.collection.clientSecret },
    now: () => new Date(),
    notify: (webhookUrl, pix) => {
      const secret = config.collection.webhookSecret;
      // API Pix notifies `<registered url>/pix`.
      if (secret) background.notify(`${webhookUrl.replace(/\/+$/, '')}/pix`, { pix }, secret, { end_to_end_id: pix[0].endToEndId });
      else logger.warn('collection webhook not sent: PIX_COLLECTION_CALLBACK_SECRET is not set', { end_to_end_id: pix[0].endToEndId });
    },
  }));
  app.use('/mail', mailRoutes(mail));
  app.use('/sefaz', sefazRoutes(nfes, () => new Date()));
  app.use('/escriturador', escrituradorRoutes(duplicatas, { apiKey: config.registrar.apiKey, now: () => new Date() }));
  app.use((_req, _res, next) => next(notFound('route')));
  app.use(sandboxErrors(logger));

  const server = await new Promise<Server>((resolve, reject) => {
    const s = app.listen(config.port, config.host, (err?: Error) => (err ? reject(err) : resolve(s)));
  });
  const address = server.address();
  const url = `http://${config.host}:${typeof address === 'object' && address ? address.port : config.port}`;
  baseUrl ||= url;
  return {
    url,
    esignUrl: `${url}/esign`,
    pixUrl: `${url}/pix`,
    apiPixUrl: `${url}/api-pix/v2`,
    mailUrl: `${url}/mail`,
    sefazUrl: `${url}/sefaz`,
    escrituradorUrl: `${url}/escriturador`,
    async close() {
      background.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
