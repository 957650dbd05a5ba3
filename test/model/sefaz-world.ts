import { ApplicationFailure } from '@temporalio/common';
import { SEFAZ_NO_VERDICT, type NfeCheckResult } from '../../activities/nfe-check';
import { checkedAtSefaz } from '../../domain/sefaz/creation-refusal';
import type { PayerEvent } from '../../domain/sefaz/payer-events';
import { NfeCancellationReason, payoutCheck } from '../../domain/sefaz/payout-check';
import type { NfeStatusAnswer, PayerEventsAnswer } from '../../domain/sefaz/port';
import { consultOutcome, distributionOutcome } from '../../domain/sefaz/status-codes';
import { RECEIVABLE_ENCUMBERED } from '../../domain/escriturador/registration';

/** The fiscal document behind a receivable: an NF-e (55), checked at SEFAZ; an NFC-e (65), out of the check's scope. */
export type NfeModel = '55' | '65';

/** One receivable's invoice as SEFAZ knows it. */
export interface ModelNfe {
  externalId: string;
  model: NfeModel;
  key: string;
  /** Only a cancellation can happen to an authorized NF-e after creation (within 24 h of its authorization). */
  status: 'authorized' | 'cancelled';
  /** Every manifestação the payer registered, in order: the payer may change its word. */
  payerWords: { event: PayerEvent; at: string }[];
}

/** What one check before the PIX found: the operation's cancellation reason, `passed`, or no verdict (SEFAZ down). */
export type CheckVerdict = NfeCancellationReason | 'passed' | 'no_verdict';

/** One attempt of the check: what the workflow's activity answered, and what the model expected of SEFAZ's state. */
export interface SefazCheck {
  verdict: CheckVerdict;
  expected: CheckVerdict;
}

/** An access key of `model` numbered `n`: state 35, 2026-11, the issuer's CNPJ, series 1, its code and a check digit nothing here reads. */
export const nfeKeyOf = (model: NfeModel, n: number): string => `352611${'11222333000181'}${model}001${String(n).padStart(9, '0')}1${'12345678'}0`;

/** The consult's answers the sandbox gives (sandbox/sefaz/answers.ts): the NF-e's status, or the service paused. */
const CONSULT = {
  authorized: { cStat: '100', reason: 'Autorizado o uso da NF-e' },
  cancelled: { cStat: '101', reason: 'Cancelamento de NF-e homologado' },
} as const;
const PAUSED = { cStat: '109', reason: 'Servico Paralisado sem Previsao' };

/**
 * SEFAZ as a model run sees it: each receivable's invoice (its status, its payer's manifestações)
 * and whether the service is down. The stand-in check answers from it through the same reading the
 * real activity applies to the port's answers (`payoutCheck`); the model's own expectation
 * (`expected`) is read from the rules in words, so a check that drifts from them is caught.
 */
export class SefazWorld {
  down = false;
  readonly checks: SefazCheck[] = [];
  /** A PIX was ordered on the last check's word: the next PIX needs a check of its own. */
  private lastCheckSpent = false;

  constructor(readonly nfes: ModelNfe[], private readonly authorizedAt: string | null) {}

  /**
   * What a check now must find: only NF-es (model 55) are asked, an NFC-e never, so with none it
   * passes; no verdict while SEFAZ is down; else the first that is cancelled, or whose payer's latest
   * conclusive word (ciência is not one) disowns it; else passed.
   */
  expected(): CheckVerdict {
    const asked = this.nfes.filter((n) => n.model === '55');
    if (asked.length > 0 && this.down) return 'no_verdict';
    for (const nfe of asked) {
      if (nfe.status === 'cancelled') return 'nfe_cancelled';
      const word = nfe.payerWords.filter((w) => w.event !== 'aware').pop();
      if (word && word.event !== 'confirmed') return 'nfe_disowned_by_payer';
    }
    return 'passed';
  }

  /**
   * The check before the PIX (activities/nfe-check.ts): every model-55 key asked, the first refusal
   * returned, no verdict for some key (and no refusal) a retryable failure, so the workflow waits.
   */
  check(now: string): NfeCheckResult {
    const asked = this.nfes.filter((nfe) => checkedAtSefaz(nfe.key)).map((nfe) => ({ nfe, outcome: payoutCheck(this.consult(nfe, now), this.distribution(nfe, now)) }));
    const refused = asked.find(({ outcome }) => outcome.status === 'refused');
    const waiting = asked.filter(({ outcome }) => outcome.status === 'pending');
    const verdict: CheckVerdict = refused ? refused.outcome.reason! : waiting.length > 0 ? 'no_verdict' : 'passed';
    this.checks.push({ verdict, expected: this.expected() });
    this.lastCheckSpent = false;
    if (refused) {
      const { reason, key, cStat, xMotivo } = refused.outcome;
      return { refusal: { reason: reason!, externalId: refused.nfe.externalId, key, cStat, xMotivo } };
    }
    if (waiting.length > 0) throw ApplicationFailure.retryable(`SEFAZ gave no verdict on ${waiting.map(({ nfe }) => nfe.key).join(', ')} yet`, SEFAZ_NO_VERDICT);
    return { refusal: null };
  }

  lastCheck(): SefazCheck | null {
    return this.checks[this.checks.length - 1] ?? null;
  }

  /**
   * A PIX is ordered: what is wrong with that in SEFAZ's eyes, or null. Each PIX follows a check
   * that passed since the one before it (a retry may come days after a failed PIX, by when the
   * invoice may be cancelled or disowned).
   */
  pixOrdered(): string | null {
    const check = this.lastCheck();
    const spent = this.lastCheckSpent;
    this.lastCheckSpent = true;
    if (!check) return 'no NF-e check ran before it';
    if (check.verdict !== 'passed') return `the last NF-e check found ${check.verdict}`;
    return spent ? 'no NF-e check ran since the PIX before it' : null;
  }

  private consult(nfe: ModelNfe, now: string): NfeStatusAnswer {
    const { cStat, reason } = this.down ? PAUSED : CONSULT[nfe.status];
    return {
      key: nfe.key, cStat, reason, outcome: consultOutcome(cStat), authorizedAt: this.authorizedAt, digestValue: null,
      eventTypes: !this.down && nfe.status === 'cancelled' ? ['110111'] : [], answeredAt: now, cached: false,
    };
  }

  private distribution(nfe: ModelNfe, now: string): PayerEventsAnswer {
    const events = this.down ? [] : nfe.payerWords.map(({ event, at }) => ({ event, at, cStat: '135' }));
    const { cStat, reason } = this.down ? PAUSED : events.length > 0 ? { cStat: '138', reason: 'Documento localizado' } : { cStat: '137', reason: 'Nenhum documento localizado' };
    return { key: nfe.key, cStat, reason, outcome: distributionOutcome(cStat), events, answeredAt: now, cached: false };
  }
}

/** Where a check before a PIX runs: before the first, and before a retry after a failed one. */
export const waitsAtCheck = (status: string): boolean => status === 'SIGNED' || status === 'DISBURSEMENT_FAILED';

/** Waiting out an outage at the check: a request waiting on the next PIX (a retry) waits as long as SEFAZ is down. */
export const waitingOutOutage = (sefaz: SefazWorld): boolean => sefaz.down && sefaz.lastCheck()?.verdict === 'no_verdict';

/**
 * What must hold at rest of an operation and its checks at SEFAZ, given where its read model is
 * (`status`, `cancellationReason`; `stalled`: the providers hold their calls): a check that
 * refused has cancelled it with that reason; a check that got no verdict keeps it waiting where
 * the check runs (the stand-in records a PIX ordered on anything but a check that passed since the
 * PIX before); an NF-e reason is never given without its check.
 */
export function sefazBrokenAtRest(sefaz: SefazWorld, status: string, cancellationReason: string | null, stalled: boolean): string[] {
  const verdict = sefaz.lastCheck()?.verdict ?? null;
  if (verdict === 'no_verdict') return waitsAtCheck(status) ? [] : [`the last NF-e check got no verdict, yet the operation is ${status}, not waiting at the check`];
  if (verdict !== null && verdict !== 'passed') {
    // A stalled e-sign provider holds the void the cancellation begins with.
    const cancelling = stalled && status === 'SIGNED';
    return cancelling || (status === 'CANCELLED' && cancellationReason === verdict) ? [] : [`the last NF-e check refused (${verdict}), yet the operation is ${status} with cancellation_reason ${cancellationReason}`];
  }
  // The escriturador's refusal comes after a check that passed (registrar-world.ts holds it to its own rule).
  if (status === 'CANCELLED' && cancellationReason !== 'requested' && cancellationReason !== RECEIVABLE_ENCUMBERED) return [`the operation is CANCELLED with cancellation_reason ${cancellationReason} while its last NF-e check found ${verdict ?? 'nothing (it never ran)'}`];
  return [];
}
