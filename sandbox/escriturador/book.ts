import { randomUUID } from 'node:crypto';
import { Dec } from '../../domain/money';
import { ACT_SUPERSEDED, type Act, type Duplicata, type EscrituradorEvent, type NegotiationRequest, type PaymentOrigin, type RefusalReason } from '../../domain/escriturador/port';
import { Refusal, Replays } from '../http';

/** What a lookup of a key nobody issued yet issues: one installment, as if the seller had just issued it. */
export const FIRST_LOOKUP_ISSUE = { installment: '001', value: '1000.00', dueInDays: 30 } as const;

export interface NewInstallment {
  installment: string;
  dueDate: string;
  value: string;
}

/** What a key produced, and the request it came with (a key reused for another request is refused). */
type Outcome = ({ actId: string } | { refused: RefusalReason }) & { request: string };

export interface EscrituradorSnapshot {
  duplicatas: Duplicata[];
  acts: Act[];
  replays: [string, Outcome][];
  payments: [string, string][];
  webhookUrl: string | null;
}

/** The NF-e key's issuer CNPJ (positions 7 to 20): the seller, first holder of its duplicatas. */
const issuerOf = (nfeKey: string) => nfeKey.slice(6, 20);

const days = (from: Date, count: number) => new Date(from.getTime() + count * 86_400_000).toISOString().slice(0, 10);

/**
 * The sandbox escriturador's books: duplicatas by NF-e key and installment, their holder and
 * liens, every act with its timestamps, and payments. The rules a real one applies to a
 * negotiation are here: only the holder transfers or pledges, liens keep their rank order, and a
 * transfer is cancelled only while its acquirer still holds the duplicata.
 */
export class EscrituradorBook {
  private readonly duplicatas = new Map<string, Duplicata>();
  private readonly acts = new Map<string, Act>();
  private readonly replays = new Replays<Outcome>();
  /** Payment idempotency key → duplicata id. */
  private readonly payments = new Map<string, string>();
  webhookUrl: string | null = null;

  constructor(private readonly now: () => Date, private readonly publish: (event: EscrituradorEvent) => void) {}

  /** The key's duplicatas by installment, issuing one installment on the first lookup of an unknown key. */
  lookup(nfeKey: string): Duplicata[] {
    const found = this.ofKey(nfeKey);
    if (found.length > 0) return found;
    const { installment, value, dueInDays } = FIRST_LOOKUP_ISSUE;
    return this.issue(nfeKey, [{ installment, value, dueDate: days(this.now(), dueInDays) }]);
  }

  /** As the seller issues them (a sandbox control): installments already issued are left as they are. */
  issue(nfeKey: string, installments: NewInstallment[]): Duplicata[] {
    for (const item of installments) {
      if (this.ofKey(nfeKey).some((d) => d.installment === item.installment)) continue;
      const issuer = issuerOf(nfeKey);
      const duplicata: Duplicata = {
        duplicataId: randomUUID(), nfeKey, installment: item.installment, dueDate: item.dueDate, value: item.value,
        issuerDocument: issuer, holderDocument: issuer, liens: [], payerAcceptance: 'pending', paidAmount: '0.00', settled: false,
      };
      this.duplicatas.set(duplicata.duplicataId, duplicata);
    }
    return this.ofKey(nfeKey);
  }

  find(duplicataId: string): Duplicata {
    const duplicata = this.duplicatas.get(duplicataId);
    if (!duplicata) throw new Refusal(404, 'duplicata_not_found', 'duplicata not found');
    return duplicata;
  }

  actsOf(duplicataId: string): Act[] {
    return [...this.acts.values()].filter((act) => act.duplicataId === duplicataId);
  }

  /** The same key answers what it answered first, a refusal included. */
  negotiate(request: NegotiationRequest, idempotencyKey: string): { act: Act; replayed: boolean } {
    const duplicata = this.find(request.duplicataId);
    const fingerprint = JSON.stringify(request);
    const { value, replayed } = this.replays.run(idempotencyKey, (): Outcome => {
      const refused = this.refusalOf(duplicata, request.fromDocument);
      return refused ? { refused, request: fingerprint } : { actId: this.record(duplicata, request).actId, request: fingerprint };
    });
    if (value.request !== fingerprint) throw new Refusal(422, 'idempotency_key_reused', 'this Idempotency-Key was sent with another request');
    if ('refused' in value) throw new Refusal(409, value.refused, value.refused === 'not_holder'
      ? 'the party negotiating never held this duplicata'
      : 'the party negotiating has transferred this duplicata already');
    return { act: this.acts.get(value.actId)!, replayed };
  }

  cancel(actId: string): Act {
    const act = this.acts.get(actId);
    if (!act) throw new Refusal(404, 'act_not_found', 'act not found');
    if (act.status === 'cancelled') return act;
    const duplicata = this.find(act.duplicataId);
    if (act.kind === 'transfer') {
      if (duplicata.holderDocument !== act.toDocument) throw new Refusal(409, ACT_SUPERSEDED, 'the acquirer has negotiated the duplicata since: this transfer can no longer be cancelled');
      duplicata.holderDocument = act.fromDocument;
    } else {
      duplicata.liens = duplicata.liens.filter((lien) => lien.actId !== actId).map((lien, index) => ({ ...lien, rank: index + 1 }));
    }
    Object.assign(act, { status: 'cancelled', cancelledAt: this.now().toISOString() });
    this.publish({ type: 'act.cancelled', eventId: randomUUID(), act });
    return act;
  }

  /** A payment to the holder (the boleto dinâmico) or informed by it; the same key records it once. */
  pay(duplicataId: string, amount: string, paidAt: string, idempotencyKey: string, origin: PaymentOrigin): Duplicata {
    const known = this.payments.get(idempotencyKey);
    if (known !== undefined) return this.find(known);
    const duplicata = this.find(duplicataId);
    if (duplicata.settled) throw new Refusal(409, 'duplicata_settled', 'the duplicata is paid in full already');
    duplicata.paidAmount = new Dec(duplicata.paidAmount).plus(amount).toFixed(2);
    duplicata.settled = new Dec(duplicata.paidAmount).gte(duplicata.value);
    this.payments.set(idempotencyKey, duplicataId);
    this.publish({
      type: 'duplicata.settled', eventId: randomUUID(), duplicataId, nfeKey: duplicata.nfeKey, installment: duplicata.installment,
      holderDocument: duplicata.holderDocument, amount, paidAmount: duplicata.paidAmount, settled: duplicata.settled, paidAt, origin,
    });
    return duplicata;
  }

  /**
   * The payer pays an installment's boleto dinâmico (a sandbox control): the escriturador records it
   * and tells the holder. `installment` null: the key's first one not paid in full.
   */
  payerPays(nfeKey: string, installment: string | null, amount: string): Duplicata {
    const open = this.ofKey(nfeKey).filter((d) => (installment === null ? !d.settled : d.installment === installment));
    if (open.length === 0) throw new Refusal(404, 'duplicata_not_found', installment === null ? 'no unpaid duplicata for this NF-e key' : 'no such installment for this NF-e key');
    return this.pay(open[0].duplicataId, amount, this.now().toISOString(), randomUUID(), 'payer');
  }

  /** Another financier acquires every duplicata of the key now, from whoever holds each (a sandbox control). */
  transferAway(nfeKey: string, holderDocument: string): Duplicata[] {
    for (const duplicata of this.lookup(nfeKey)) {
      if (duplicata.holderDocument === holderDocument) continue;
      this.record(duplicata, {
        kind: 'transfer', duplicataId: duplicata.duplicataId, fromDocument: duplicata.holderDocument, toDocument: holderDocument, negotiationType: 'aquisicao',
      });
    }
    return this.ofKey(nfeKey);
  }

  snapshot(): EscrituradorSnapshot {
    return {
      duplicatas: [...this.duplicatas.values()], acts: [...this.acts.values()], replays: this.replays.entries(),
      payments: [...this.payments.entries()], webhookUrl: this.webhookUrl,
    };
  }

  restore(snapshot: EscrituradorSnapshot): void {
    for (const duplicata of snapshot.duplicatas) this.duplicatas.set(duplicata.duplicataId, duplicata);
    for (const act of snapshot.acts) this.acts.set(act.actId, act);
    for (const [key, outcome] of snapshot.replays) this.replays.restore(key, outcome);
    for (const [key, duplicataId] of snapshot.payments) this.payments.set(key, duplicataId);
    this.webhookUrl = snapshot.webhookUrl;
  }

  private ofKey(nfeKey: string): Duplicata[] {
    return [...this.duplicatas.values()].filter((d) => d.nfeKey === nfeKey).sort((a, b) => a.installment.localeCompare(b.installment));
  }

  /** Whoever negotiates must hold it now; one who held it once and let it go is told so. */
  private refusalOf(duplicata: Duplicata, fromDocument: string): RefusalReason | null {
    if (duplicata.holderDocument === fromDocument) return null;
    const heldOnce = this.actsOf(duplicata.duplicataId).some((act) => act.kind === 'transfer' && act.status === 'registered' && act.fromDocument === fromDocument);
    return heldOnce || duplicata.issuerDocument === fromDocument ? 'already_transferred' : 'not_holder';
  }

  private record(duplicata: Duplicata, request: NegotiationRequest): Act {
    const act: Act = {
      actId: randomUUID(), duplicataId: duplicata.duplicataId, kind: request.kind,
      negotiationType: request.kind === 'transfer' ? request.negotiationType : null,
      fromDocument: request.fromDocument, toDocument: request.toDocument, status: 'registered', registeredAt: this.now().toISOString(), cancelledAt: null,
    };
    this.acts.set(act.actId, act);
    if (request.kind === 'transfer') duplicata.holderDocument = request.toDocument;
    else duplicata.liens.push({ actId: act.actId, rank: duplicata.liens.length + 1, beneficiaryDocument: request.toDocument });
    this.publish({ type: 'act.registered', eventId: randomUUID(), act });
    return act;
  }
}
