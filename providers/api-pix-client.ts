import { PixCollectionError, isTransient } from './provider-errors';
import type { Agent } from 'undici';
import type { ClientTls } from '../platform/config/tls';
import { tlsAgent } from './tls-agent';
import { Money } from '../domain/money';
import type { PspStatement } from '../domain/ledger/reconciliation';
import type { FundingLineKind } from '../domain/ledger/funding-postings';
import { statementLine, type AccountLineBooked } from './psp-account-lines';
import { pathOf, ProviderHttp, ProviderRequest, Reader, unreachable } from './provider-http';

export interface ApiPixSettings {
  /** The API's base (`https://psp.example/api/v2`). */
  apiUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** TLS with the PSP (its token endpoint and API), mutual when a client certificate is given; absent: the defaults. */
  tls?: ClientTls | null;
}

export type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface NewCharge {
  txid: string;
  dueDate: string;
  validAfterDueDays: number;
  debtor: { document: string; name: string };
  amount: string;
  finePct: string;
  interestMonthlyPct: string;
  pixKey: string;
}

export interface Charge {
  txid: string;
  revision: number;
  status: ChargeStatus;
  amount: string;
  location: string;
  brCode: string;
}

/** A PIX received, against a charge (its txid) or not, its amount split as the PSP reports it. */
export interface ReceivedPix {
  endToEndId: string;
  /** The charge it paid; null for a PIX sent to the key without one. */
  txid: string | null;
  /** The receiving key (API Pix `chave`): whose PIX it is when no charge says so. */
  pixKey: string | null;
  /** What the payer wrote with it (API Pix `infoPagador`). */
  payerInfo: string | null;
  amount: string;
  /** Fine and interest included in `amount` (zero when paid by the due date). */
  fine: string;
  interest: string;
  paidAt: string;
}

/** The extrato's natures of the account's own lines. */
const ACCOUNT_LINE_KIND: Readonly<Record<string, FundingLineKind>> = { APORTE: 'top_up', RESGATE: 'sweep', TARIFA: 'fee' };

const STATUSES: readonly ChargeStatus[] = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'];

function readCharge(reply: Reader): Charge {
  const status = reply.at('status').text() as ChargeStatus;
  if (!STATUSES.includes(status)) throw new Error(`unknown cobv status ${status}`);
  return {
    txid: reply.at('txid').text(), revision: Number(reply.at('revisao').raw()), status, amount: reply.at('valor').at('original').money(),
    location: reply.at('loc').at('location').text(), brCode: reply.at('pixCopiaECola').text(),
  };
}

export function readPix(reply: Reader): ReceivedPix {
  const parts = reply.at('componentesValor');
  return {
    endToEndId: reply.at('endToEndId').text(), txid: reply.at('txid').textOrNull(), pixKey: reply.at('chave').textOrNull(),
    payerInfo: reply.at('infoPagador').textOrNull(), amount: reply.at('valor').money(),
    fine: parts.at('multa').at('valor').moneyOrNull() ?? '0.00', interest: parts.at('juros').at('valor').moneyOrNull() ?? '0.00',
    paidAt: reply.at('horario').text(),
  };
}

/** The webhook's `{pix: [...]}`, with or without a charge's txid; entries we cannot read are left out. */
export function readPixNotification(body: unknown): ReceivedPix[] {
  try {
    return new Reader(body, 'webhook').at('pix').list().flatMap((item) => {
      try {
        return [readPix(item)];
      } catch {
        return [];
      }
    });
  } catch {
    return [];
  }
}

/**
 * The originator's collection PSP through the Central Bank's API Pix (release 2.9.0): OAuth2 client
 * credentials, then the `cobv`, `pix`, `devolucao` and `webhook` resources. Every write is keyed
 * (txid, refund id), so a retried call changes nothing twice.
 */
export class ApiPixClient {
  private readonly http: ProviderHttp;
  private readonly dispatcher: Agent | undefined;
  private token: { value: string; until: number } | null = null;

  constructor(private readonly settings: ApiPixSettings) {
    this.dispatcher = tlsAgent(settings.tls);
    this.http = new ProviderHttp(settings.apiUrl, settings.timeoutMs, this.dispatcher);
  }

  putCharge(charge: NewCharge): Promise<Charge> {
    const body = {
      calendario: { dataDeVencimento: charge.dueDate, validadeAposVencimento: charge.validAfterDueDays },
      devedor: { [charge.debtor.document.length === 11 ? 'cpf' : 'cnpj']: charge.debtor.document, nome: charge.debtor.name },
      valor: {
        original: charge.amount,
        // The payer may pay part: the title tracks partial payments and the charge is revised for the rest.
        modalidadeAlteracao: 1,
        multa: { modalidade: '2', valorPerc: charge.finePct },
        juros: { modalidade: '3', valorPerc: charge.interestMonthlyPct },
      },
      chave: charge.pixKey,
    };
    return this.call({ method: 'PUT', path: pathOf('cobv', charge.txid), body }, readCharge);
  }

  /** Null when the PSP has no charge with this txid. */
  async getCharge(txid: string): Promise<Charge | null> {
    try {
      return await this.call({ method: 'GET', path: pathOf('cobv', txid) }, readCharge);
    } catch (err) {
      if (err instanceof PixCollectionError && err.providerStatus === 404) return null;
      throw err;
    }
  }

  reviseCharge(txid: string, amount: string): Promise<Charge> {
    return this.call({ method: 'PATCH', path: pathOf('cobv', txid), body: { valor: { original: amount } } }, readCharge);
  }

  removeCharge(txid: string): Promise<Charge> {
    return this.call({ method: 'PATCH', path: pathOf('cobv', txid), body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } }, readCharge);
  }

  receivedBetween(from: Date, to: Date): Promise<ReceivedPix[]> {
    const path = `/pix?inicio=${encodeURIComponent(from.toISOString())}&fim=${encodeURIComponent(to.toISOString())}`;
    return this.call({ method: 'GET', path }, (r) => r.at('pix').list().map(readPix));
  }

  /**
   * One page of the account's statement (the sandbox PSP's `extrato`; a production PSP's own
   * statement API in its adapter): PIX received in, refunds out, and the balance at `to`.
   */
  statementPage(from: Date, to: Date, page: number): Promise<PspStatement & { pages: number }> {
    const path = `${pathOf('sandbox', 'extrato')}?inicio=${encodeURIComponent(from.toISOString())}&fim=${encodeURIComponent(to.toISOString())}&paginacao.paginaAtual=${page}`;
    return this.call({ method: 'GET', path }, (r) => ({
      pages: Number(r.at('parametros').at('paginacao').at('quantidadeDePaginas').raw()),
      closingBalance: Money.of(r.at('saldoFinal').text()),
      lines: r.at('lancamentos').list().map((line) => statementLine({
        reference: line.at('endToEndId').textOrNull() ?? line.at('idLancamento').text(), endToEndId: line.at('endToEndId').textOrNull(),
        direction: line.at('tipo').text() === 'CREDITO' ? 'in' : 'out', amount: Money.of(line.at('valor').money()), at: new Date(line.at('horario').text()),
      }, ACCOUNT_LINE_KIND[line.at('natureza').text()] ?? 'pix', line.at('idLancamento').textOrNull() ?? '', line.at('subconta').textOrNull())),
    }));
  }

  /**
   * The sandbox PSP only (not API Pix): books a top-up, a sweep or a fee on the account now, to
   * `subAccount`; its line as the statement lists it.
   */
  addAccountLine(kind: FundingLineKind, amount: string, subAccount: string): Promise<AccountLineBooked> {
    return this.call({ method: 'POST', path: pathOf('sandbox', 'lancamentos'), body: { kind, amount, sub_account: subAccount } },
      (r) => ({ id: r.at('idLancamento').text(), amount: r.at('valor').money(), at: r.at('horario').text() }));
  }

  /** The same `refundId` is the same refund, however often it is asked for. */
  refund(endToEndId: string, refundId: string, amount: string): Promise<{ id: string; amount: string }> {
    return this.call({ method: 'PUT', path: pathOf('pix', endToEndId, 'devolucao', refundId), body: { valor: amount } },
      (r) => ({ id: r.at('id').text(), amount: r.at('valor').money() }));
  }

  /**
   * The sandbox PSP only (not API Pix): the payer's bank pays the charge at `paidAt` (a test
   * clock's time; null: the PSP's now), `amount` or what the BR Code asks at that moment;
   * `webhook` once, twice (a repeat) or lost (none sent).
   */
  simulatePayment(txid: string, amount: string | null, webhook: 'once' | 'twice' | 'lost', paidAt: Date | null = null): Promise<ReceivedPix> {
    const body = { valor: amount, webhook, ...(paidAt ? { horario: paidAt.toISOString() } : {}) };
    return this.call({ method: 'POST', path: pathOf('sandbox', 'cobv', txid, 'pagamentos'), body }, readPix);
  }

  setWebhook(pixKey: string, webhookUrl: string): Promise<void> {
    return this.call({ method: 'PUT', path: pathOf('webhook', pixKey), body: { webhookUrl } }, () => undefined);
  }

  /** A token the PSP no longer knows (it restarted, or revoked it) is fetched again once. */
  private async call<T>(request: ProviderRequest, parse: (reply: Reader) => T): Promise<T> {
    const fail = (message: string, status: number | null) =>
      new PixCollectionError(isTransient(status) ? 'pix_collection_unavailable' : 'pix_collection_refused', message, status);
    try {
      return await this.http.call({ ...request, bearer: await this.bearer() }, parse, fail);
    } catch (err) {
      if (!(err instanceof PixCollectionError) || err.providerStatus !== 401) throw err;
      this.token = null;
      return this.http.call({ ...request, bearer: await this.bearer() }, parse, fail);
    }
  }

  private async bearer(): Promise<string> {
    if (this.token && this.token.until > Date.now()) return this.token.value;
    const { tokenUrl, clientId, clientSecret, timeoutMs } = this.settings;
    let response: Response;
    try {
      response = await fetch(tokenUrl, {
        method: 'POST',
        headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        signal: AbortSignal.timeout(timeoutMs),
        ...(this.dispatcher ? { dispatcher: this.dispatcher } : {}),
      });
    } catch (err) {
      throw new PixCollectionError('pix_collection_unavailable', `token endpoint ${unreachable(err, timeoutMs, tokenUrl)}`, null);
    }
    const text = await response.text();
    if (!response.ok) throw new PixCollectionError(isTransient(response.status) ? 'pix_collection_unavailable' : 'pix_collection_refused', `token endpoint answered ${response.status}`, response.status);
    const reply = new Reader(JSON.parse(text));
    const lifetimeS = Number(reply.at('expires_in').raw() ?? 300);
    // Renewed a minute early, so a token never expires on its way to the PSP.
    this.token = { value: reply.at('access_token').text(), until: Date.now() + Math.max(0, lifetimeS - 60) * 1000 };
    return this.token.value;
  }
}
