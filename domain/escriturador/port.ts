/**
 * The financier's side of a duplicata escritural (Lei 13.775/2018, Res. BCB 339/2023): the
 * assignor's escriturador issues each duplicata and keeps its holder, liens and acts; we look it
 * up, record our acquisition (or a lien), cancel our act when the deal falls through, and read its
 * settlement. Records are keyed by the escriturador's duplicata id; the NF-e key and the
 * installment (`nDup`) are attributes, since one NF-e carries several duplicatas.
 */
import type { NegotiationType } from './negotiation';

export type PayerAcceptance = 'pending' | 'accepted' | 'refused';

export interface Lien {
  actId: string;
  /** 1 is paid first; ranks close up when an earlier lien is cancelled. */
  rank: number;
  beneficiaryDocument: string;
}

export interface Duplicata {
  duplicataId: string;
  nfeKey: string;
  /** The installment's number as the NF-e's `nDup` writes it ("001"). */
  installment: string;
  dueDate: string;
  /** Two decimals, never a float. */
  value: string;
  /** The seller who issued it (sacador). */
  issuerDocument: string;
  holderDocument: string;
  liens: Lien[];
  payerAcceptance: PayerAcceptance;
  /** What the escriturador has recorded as paid, two decimals. */
  paidAmount: string;
  settled: boolean;
}

/** `transfer`: endorsement or assignment to `toDocument`; `lien`: a pledge endorsement to `toDocument`. */
export type NegotiationRequest =
  | { kind: 'transfer'; duplicataId: string; fromDocument: string; toDocument: string; negotiationType: NegotiationType }
  | { kind: 'lien'; duplicataId: string; fromDocument: string; toDocument: string };

export type ActKind = NegotiationRequest['kind'];
export type ActStatus = 'registered' | 'cancelled';

export interface Act {
  actId: string;
  duplicataId: string;
  kind: ActKind;
  negotiationType: NegotiationType | null;
  fromDocument: string;
  toDocument: string;
  status: ActStatus;
  registeredAt: string;
  cancelledAt: string | null;
}

/**
 * Why the escriturador refused a negotiation: `not_holder` the party transferring never held the
 * duplicata; `already_transferred` it held it and has negotiated it away since.
 */
export const REFUSAL_REASONS = ['not_holder', 'already_transferred'] as const;
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** The escriturador's refusal to cancel a transfer whose acquirer has negotiated the duplicata on since. */
export const ACT_SUPERSEDED = 'act_superseded';

/** A refusal is an answer, not a failure: the caller decides what it means for the operation. */
export type NegotiationOutcome = { outcome: 'registered'; act: Act } | { outcome: 'refused'; reason: RefusalReason };

/**
 * Who a recorded payment came from: `payer` paid the boleto dinâmico, so the money went to the
 * holder (Res. BCB 443/2024); `holder` informed one it received elsewhere (a PIX charge, staff).
 */
export type PaymentOrigin = 'payer' | 'holder';

/** The event types this service reads; the escriturador may publish others. */
export const ESCRITURADOR_EVENT_TYPES = ['act.registered', 'act.cancelled', 'duplicata.settled'] as const;

/** What the escriturador publishes: an act recorded or cancelled, or a payment recorded. */
export type EscrituradorEvent =
  | { type: 'act.registered' | 'act.cancelled'; eventId: string; act: Act }
  | {
    type: 'duplicata.settled'; eventId: string; duplicataId: string; nfeKey: string; installment: string; holderDocument: string;
    amount: string; paidAmount: string; settled: boolean; paidAt: string; origin: PaymentOrigin;
  };

/**
 * The port. Every act is sent with an idempotency key: the same key always yields the same single
 * act, so an activity retried after a lost answer never records twice.
 */
export interface Escriturador {
  /** The NF-e's duplicatas by installment; empty when the escriturador holds none for the key. */
  lookup(nfeKey: string): Promise<Duplicata[]>;
  negotiate(request: NegotiationRequest, idempotencyKey: string): Promise<NegotiationOutcome>;
  /** Cancelling an act already cancelled answers it as it is. */
  cancelAct(actId: string, idempotencyKey: string): Promise<Act>;
  /** The duplicata as it stands now, with its acts in the order they were recorded. */
  status(duplicataId: string): Promise<{ duplicata: Duplicata; acts: Act[] }>;
  /** A payment received outside the escriturador (a PIX charge, an entry by staff), informed so the payer is not asked again. */
  informPayment(duplicataId: string, amount: string, paidAt: string, idempotencyKey: string): Promise<Duplicata>;
}

