import { randomBytes } from 'node:crypto';
import { dynamicBrCode } from '../../domain/collection/br-code';
import { lateComponents } from '../../domain/collection/late-charges';
import { Money } from '../../domain/money';
import { addDays, businessDate } from '../../domain/pricing';
import { PixProblem } from './problem';
import { endToEndId } from '../end-to-end-id';
import { AccountLines, type AccountLine } from '../account-lines';
import { FUNDING_LINE_DIRECTION, type FundingLineKind } from '../../domain/ledger/funding-postings';

/** API Pix 2.9.0 `CobVCompleta` (the fields this sandbox keeps). */
export interface Cobv {
  txid: string;
  revisao: number;
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
  calendario: { criacao: string; dataDeVencimento: string; validadeAposVencimento: number };
  loc: { id: number; location: string; tipoCob: 'cobv'; criacao: string };
  devedor: { cpf?: string; cnpj?: string; nome: string };
  recebedor: { nome: string; cidade: string };
  valor: {
    original: string;
    modalidadeAlteracao: 0 | 1;
    multa?: { modalidade: '2'; valorPerc: string };
    juros?: { modalidade: '3'; valorPerc: string };
  };
  chave: string;
  solicitacaoPagador?: string;
  pixCopiaECola: string;
}

export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza: 'ORIGINAL';
  horario: { solicitacao: string; liquidacao: string };
  status: 'DEVOLVIDO';
}

/** API Pix `Pix`: one PIX received, against a charge (its txid) or straight to the key. */
export interface ReceivedPix {
  endToEndId: string;
  txid?: string;
  valor: string;
  componentesValor: { original: { valor: string }; multa?: { valor: string }; juros?: { valor: string } };
  chave: string;
  horario: string;
  infoPagador?: string;
  devolucoes: Devolucao[];
}

/**
 * A statement line (lançamento): a PIX received, a refund of one, or a line of the account's own
 * (a top-up, `APORTE`; a sweep, `RESGATE`; the PSP's fee, `TARIFA`) with its id and sub-account.
 */
export interface Lancamento {
  tipo: 'CREDITO' | 'DEBITO';
  natureza: 'PIX_RECEBIDO' | 'DEVOLUCAO' | 'APORTE' | 'RESGATE' | 'TARIFA';
  endToEndId?: string;
  rtrId?: string;
  idLancamento?: string;
  subconta?: string;
  valor: string;
  horario: string;
}

const NATUREZA: Readonly<Record<FundingLineKind, Lancamento['natureza']>> = { top_up: 'APORTE', sweep: 'RESGATE', fee: 'TARIFA' };

export const lancamentoOf = (line: AccountLine): Lancamento => ({
  tipo: FUNDING_LINE_DIRECTION[line.kind] === 'in' ? 'CREDITO' : 'DEBITO', natureza: NATUREZA[line.kind],
  idLancamento: line.id, subconta: line.subAccount, valor: line.amount, horario: line.at,
});

export interface CollectionSnapshot {
  charges: Cobv[];
  received: ReceivedPix[];
  /** endToEndId to when the PSP recorded it (absent in state files written before test clocks paid). */
  recordedAt?: [string, string][];
  webhooks: [string, string][];
  lastLoc: number;
  /** Top-ups, sweeps and fees (absent in state files written before them). */
  accountLines?: AccountLine[];
}

export type NewCobv = Pick<Cobv, 'devedor' | 'valor' | 'chave' | 'solicitacaoPagador'> & { calendario: Pick<Cobv['calendario'], 'dataDeVencimento' | 'validadeAposVencimento'> };

/**
 * The simulated collection PSP: charges with a due date (`cobv`), the PIX received against them,
 * refunds and webhook registrations. `snapshot()`/`restore()` carry them across restarts.
 */
export class CollectionBook {
  private readonly charges = new Map<string, Cobv>();
  private readonly received = new Map<string, ReceivedPix>();
  /** When each PIX reached the book: its `horario` may be a test clock's time, months from this one. */
  private readonly recordedAt = new Map<string, number>();
  private readonly webhooks = new Map<string, string>();
  private lastLoc = 0;
  /** The account's top-ups, sweeps and fees: no PIX causes them. */
  readonly accountLines = new AccountLines();

  constructor(private readonly locationBase: () => string, private readonly merchant: { nome: string; cidade: string }) {}

  put(txid: string, input: NewCobv, now: Date): Cobv {
    if (this.charges.has(txid)) throw new PixProblem('CobVOperacaoInvalida', 409, 'A cobrança já existe', `txid ${txid} já foi utilizado`);
    this.lastLoc += 1;
    const location = `${this.locationBase()}/cobv/${randomBytes(16).toString('hex')}`;
    const charge: Cobv = {
      txid, revisao: 0, status: 'ATIVA',
      calendario: { criacao: now.toISOString(), ...input.calendario },
      loc: { id: this.lastLoc, location, tipoCob: 'cobv', criacao: now.toISOString() },
      devedor: input.devedor, recebedor: this.merchant, valor: input.valor, chave: input.chave,
      ...(input.solicitacaoPagador ? { solicitacaoPagador: input.solicitacaoPagador } : {}),
      pixCopiaECola: dynamicBrCode({ location, merchantName: this.merchant.nome, merchantCity: this.merchant.cidade }),
    };
    this.charges.set(txid, charge);
    return charge;
  }

  get(txid: string): Cobv {
    const charge = this.charges.get(txid);
    if (!charge) throw new PixProblem('CobVNaoEncontrado', 404, 'Cobrança não encontrada', `nenhuma cobrança com txid ${txid}`);
    return charge;
  }

  /** A revision: the amount left to pay, or the charge's removal. Only an active charge changes. */
  patch(txid: string, change: { status?: 'REMOVIDA_PELO_USUARIO_RECEBEDOR'; valor?: { original: string } }): Cobv {
    const charge = this.get(txid);
    if (charge.status !== 'ATIVA') throw new PixProblem('CobVOperacaoInvalida', 400, 'Cobrança não pode ser alterada', `a cobrança está ${charge.status}`);
    if (change.status) charge.status = change.status;
    if (change.valor) charge.valor = { ...charge.valor, original: change.valor.original };
    charge.revisao += 1;
    return charge;
  }

  /**
   * The payer's bank pays the charge (a sandbox extra) at `paidAt`, the PIX's `horario`: a test
   * clock's time when the payer's title lives on one. Lateness and expiry are judged at that
   * moment: after the due date the amount asked carries fine and interest; after the days of
   * validity the charge is no longer payable.
   */
  pay(txid: string, valor: string | null, paidAt: Date, recordedAt: Date): ReceivedPix {
    const charge = this.get(txid);
    if (charge.status !== 'ATIVA') throw new PixProblem('CobVOperacaoInvalida', 400, 'Cobrança não está ativa', `a cobrança está ${charge.status}`);
    const { dataDeVencimento, validadeAposVencimento } = charge.calendario;
    if (businessDate(paidAt) > addDays(dataDeVencimento, validadeAposVencimento)) {
      throw new PixProblem('CobVOperacaoInvalida', 400, 'Cobrança expirada', `a cobrança venceu em ${dataDeVencimento} e valia ${validadeAposVencimento} dias após o vencimento`);
    }
    const late = lateComponents({
      original: Money.of(charge.valor.original), dueDate: dataDeVencimento, paidOn: paidAt,
      finePct: charge.valor.multa?.valorPerc ?? '0', interestMonthlyPct: charge.valor.juros?.valorPerc ?? '0',
    });
    const due = Money.of(charge.valor.original).plus(late.fine).plus(late.interest);
    const paid = valor === null ? due : Money.of(valor);
    const pix: ReceivedPix = {
      endToEndId: endToEndId(paidAt), txid, valor: paid.toString(), chave: charge.chave, horario: paidAt.toISOString(), devolucoes: [],
      componentesValor: {
        original: { valor: paid.minus(late.fine).minus(late.interest).toString() },
        ...(late.fine.isZero() ? {} : { multa: { valor: late.fine.toString() } }),
        ...(late.interest.isZero() ? {} : { juros: { valor: late.interest.toString() } }),
      },
    };
    this.received.set(pix.endToEndId, pix);
    this.recordedAt.set(pix.endToEndId, recordedAt.getTime());
    if (!due.gt(paid)) charge.status = 'CONCLUIDA';
    return pix;
  }

  /** A payer sends a PIX straight to the key (a sandbox extra), with no charge: nothing here says what it pays. */
  receive(chave: string, valor: string, infoPagador: string | null, paidAt: Date, recordedAt: Date): ReceivedPix {
    const pix: ReceivedPix = {
      endToEndId: endToEndId(paidAt), valor, componentesValor: { original: { valor } }, chave, horario: paidAt.toISOString(), devolucoes: [],
      ...(infoPagador === null ? {} : { infoPagador }),
    };
    this.received.set(pix.endToEndId, pix);
    this.recordedAt.set(pix.endToEndId, recordedAt.getTime());
    return pix;
  }

  pix(e2eid: string): ReceivedPix {
    const pix = this.received.get(e2eid);
    if (!pix) throw new PixProblem('PixNaoEncontrado', 404, 'Pix não encontrado', `nenhum Pix com endToEndId ${e2eid}`);
    return pix;
  }

  /**
   * Recorded between `inicio` and `fim` (inclusive), oldest first. A real PSP has one time, so
   * recording and `horario` agree; here a PIX paid at a test clock's time is listed when it was
   * recorded, so a sweep over the last hours (real time) still finds it.
   */
  pixBetween(inicio: Date, fim: Date): ReceivedPix[] {
    const recorded = (pix: ReceivedPix) => this.recordedAt.get(pix.endToEndId) ?? Date.parse(pix.horario);
    return [...this.received.values()]
      .filter((p) => recorded(p) >= inicio.getTime() && recorded(p) <= fim.getTime())
      .sort((a, b) => recorded(a) - recorded(b));
  }

  /**
   * The account's statement (extrato): each PIX received at its `horario`, each refund at its
   * settlement and each of the account's own lines, in [inicio, fim), oldest first, and the balance
   * at `fim` (the sandbox account starts empty).
   */
  extrato(inicio: Date, fim: Date): { lancamentos: Lancamento[]; saldoFinal: string } {
    const all: Lancamento[] = [...this.received.values()].flatMap((pix): Lancamento[] => [
      { tipo: 'CREDITO', natureza: 'PIX_RECEBIDO', endToEndId: pix.endToEndId, valor: pix.valor, horario: pix.horario },
      ...pix.devolucoes.map((d): Lancamento => ({ tipo: 'DEBITO', natureza: 'DEVOLUCAO', endToEndId: pix.endToEndId, rtrId: d.rtrId, valor: d.valor, horario: d.horario.liquidacao })),
    ]).concat(this.accountLines.between(new Date(0), fim).map(lancamentoOf)).filter((line) => Date.parse(line.horario) < fim.getTime());
    const saldo = Money.sum(all.map((line) => (line.tipo === 'CREDITO' ? Money.of(line.valor) : Money.ZERO.minus(Money.of(line.valor)))));
    const lancamentos = all.filter((line) => Date.parse(line.horario) >= inicio.getTime()).sort((a, b) => Date.parse(a.horario) - Date.parse(b.horario));
    return { lancamentos, saldoFinal: saldo.toString() };
  }

  /** The same refund id answers the same refund; together they never return more than was received. */
  refund(e2eid: string, id: string, valor: string, now: Date): { devolucao: Devolucao; created: boolean } {
    const pix = this.pix(e2eid);
    const earlier = pix.devolucoes.find((d) => d.id === id);
    if (earlier) return { devolucao: earlier, created: false };
    const refunded = Money.sum(pix.devolucoes.map((d) => Money.of(d.valor)));
    if (refunded.plus(Money.of(valor)).gt(Money.of(pix.valor))) {
      throw new PixProblem('PixDevolucaoInvalida', 400, 'Devolução inválida', 'o valor devolvido excederia o valor do Pix');
    }
    const devolucao: Devolucao = {
      id, rtrId: endToEndId(now, 'D'), valor: Money.of(valor).toString(), natureza: 'ORIGINAL',
      horario: { solicitacao: now.toISOString(), liquidacao: now.toISOString() }, status: 'DEVOLVIDO',
    };
    pix.devolucoes.push(devolucao);
    return { devolucao, created: true };
  }

  setWebhook(chave: string, webhookUrl: string): void {
    this.webhooks.set(chave, webhookUrl);
  }

  webhookOf(chave: string): string | null {
    return this.webhooks.get(chave) ?? null;
  }

  snapshot(): CollectionSnapshot {
    return {
      charges: [...this.charges.values()], received: [...this.received.values()], webhooks: [...this.webhooks.entries()], lastLoc: this.lastLoc,
      recordedAt: [...this.recordedAt.entries()].map(([e2eid, at]) => [e2eid, new Date(at).toISOString()]),
      accountLines: this.accountLines.snapshot(),
    };
  }

  restore(snapshot: CollectionSnapshot | undefined): void {
    if (!snapshot) return;
    for (const charge of snapshot.charges) this.charges.set(charge.txid, charge);
    for (const pix of snapshot.received) this.received.set(pix.endToEndId, pix);
    for (const [chave, url] of snapshot.webhooks) this.webhooks.set(chave, url);
    for (const [e2eid, at] of snapshot.recordedAt ?? []) this.recordedAt.set(e2eid, Date.parse(at));
    this.lastLoc = snapshot.lastLoc;
    this.accountLines.restore(snapshot.accountLines);
  }
}
