import { NEGOTIATION_TYPES, NegotiationType } from '../../domain/escriturador/negotiation';
import {
  Act, Duplicata, Escriturador, EscrituradorEvent, NegotiationOutcome, NegotiationRequest, PayerAcceptance, REFUSAL_REASONS, RefusalReason,
} from '../../domain/escriturador/port';
import { isTransient, RegistrarError } from '../provider-errors';
import { pathOf, ProviderHttp, ProviderRequest, Reader } from '../provider-http';

export interface EscrituradorSettings {
  /** The API's base (`https://escriturador.example/api`). */
  url: string;
  apiKey: string;
  timeoutMs: number;
}

const ACCEPTANCES: readonly PayerAcceptance[] = ['pending', 'accepted', 'refused'];

function oneOf<T extends string>(reader: Reader, allowed: readonly T[]): T {
  const value = reader.text();
  if (!allowed.includes(value as T)) throw new Error(`unknown value ${value}`);
  return value as T;
}

export function readDuplicata(reply: Reader): Duplicata {
  return {
    duplicataId: reply.at('id').text(), nfeKey: reply.at('chave_nfe').text(), installment: reply.at('n_dup').text(), dueDate: reply.at('vencimento').text(),
    value: reply.at('valor').money(), issuerDocument: reply.at('sacador').text(), holderDocument: reply.at('titular').text(),
    liens: reply.at('gravames').list().map((lien) => ({ actId: lien.at('ato_id').text(), rank: Number(lien.at('ordem').raw()), beneficiaryDocument: lien.at('beneficiario').text() })),
    payerAcceptance: oneOf(reply.at('aceite'), ACCEPTANCES), paidAmount: reply.at('valor_pago').money(), settled: reply.at('liquidada').flag(),
  };
}

export function readAct(reply: Reader): Act {
  const kind = oneOf(reply.at('tipo'), ['endosso', 'endosso_penhor']);
  const negotiationType = reply.at('tipo_negociacao').textOrNull();
  if (negotiationType !== null && !(NEGOTIATION_TYPES as readonly string[]).includes(negotiationType)) throw new Error(`unknown negotiation type ${negotiationType}`);
  return {
    actId: reply.at('id').text(), duplicataId: reply.at('duplicata_id').text(), kind: kind === 'endosso' ? 'transfer' : 'lien',
    negotiationType: negotiationType as NegotiationType | null, fromDocument: reply.at('de').text(), toDocument: reply.at('para').text(),
    status: oneOf(reply.at('situacao'), ['registrado', 'cancelado']) === 'registrado' ? 'registered' : 'cancelled',
    registeredAt: reply.at('registrado_em').text(), cancelledAt: reply.at('cancelado_em').textOrNull(),
  };
}

/** A webhook's body; null for one we cannot read (an event type this adapter does not know). */
export function readEscrituradorEvent(body: unknown): EscrituradorEvent | null {
  const reply = new Reader(body, 'webhook');
  try {
    const type = reply.at('evento').text();
    const eventId = reply.at('id').text();
    if (type === 'act.registered' || type === 'act.cancelled') return { type, eventId, act: readAct(reply.at('ato')) };
    if (type !== 'duplicata.settled') return null;
    return {
      type, eventId, duplicataId: reply.at('duplicata_id').text(), nfeKey: reply.at('chave_nfe').text(), installment: reply.at('n_dup').text(),
      holderDocument: reply.at('titular').text(), amount: reply.at('valor').money(), paidAmount: reply.at('valor_pago').money(),
      settled: reply.at('liquidada').flag(), paidAt: reply.at('data_pagamento').text(),
      origin: oneOf(reply.at('origem'), ['boleto', 'informado']) === 'boleto' ? 'payer' : 'holder',
    };
  } catch {
    return null;
  }
}

const isRefusalReason = (code: string | null): code is RefusalReason => (REFUSAL_REASONS as readonly (string | null)[]).includes(code);

/**
 * The escriturador's HTTP API: escrituração (`/escrituracao/duplicatas`: look up, read, inform a
 * payment) apart from registro (`/registro/...`: endorsements, pledge endorsements, cancelling an
 * act), every call with the account's API key as a bearer and every act with an idempotency key.
 * A negotiation the escriturador refuses (409 `not_holder`, `already_transferred`) is an outcome,
 * not an error; anything else it refuses is `registrar_refused`, anything transient `registrar_unavailable`.
 */
export class HttpEscriturador implements Escriturador {
  private readonly http: ProviderHttp;

  constructor(private readonly settings: EscrituradorSettings) {
    this.http = new ProviderHttp(settings.url, settings.timeoutMs);
  }

  lookup(nfeKey: string): Promise<Duplicata[]> {
    const path = `${pathOf('escrituracao', 'duplicatas')}?chave_nfe=${encodeURIComponent(nfeKey)}`;
    return this.call({ method: 'GET', path }, (reply) => reply.at('duplicatas').list().map(readDuplicata));
  }

  async negotiate(request: NegotiationRequest, idempotencyKey: string): Promise<NegotiationOutcome> {
    const common = { duplicata_id: request.duplicataId, endossante: request.fromDocument, endossatario: request.toDocument };
    const [path, body] = request.kind === 'transfer'
      ? [pathOf('registro', 'endossos'), { ...common, tipo_negociacao: request.negotiationType }]
      : [pathOf('registro', 'endossos-penhor'), common];
    try {
      return { outcome: 'registered', act: await this.call({ method: 'POST', path, body, idempotencyKey }, (reply) => readAct(reply.at('ato'))) };
    } catch (err) {
      if (err instanceof RegistrarError && err.providerStatus === 409 && isRefusalReason(err.refusalCode)) return { outcome: 'refused', reason: err.refusalCode };
      throw err;
    }
  }

  cancelAct(actId: string, idempotencyKey: string): Promise<Act> {
    return this.call({ method: 'POST', path: pathOf('registro', 'atos', actId, 'cancelamento'), body: {}, idempotencyKey }, (reply) => readAct(reply.at('ato')));
  }

  status(duplicataId: string): Promise<{ duplicata: Duplicata; acts: Act[] }> {
    return this.call({ method: 'GET', path: pathOf('escrituracao', 'duplicatas', duplicataId) }, (reply) => ({
      duplicata: readDuplicata(reply.at('duplicata')), acts: reply.at('atos').list().map(readAct),
    }));
  }

  informPayment(duplicataId: string, amount: string, paidAt: string, idempotencyKey: string): Promise<Duplicata> {
    const body = { valor: amount, data_pagamento: paidAt };
    return this.call({ method: 'POST', path: pathOf('escrituracao', 'duplicatas', duplicataId, 'pagamentos'), body, idempotencyKey }, (reply) => readDuplicata(reply.at('duplicata')));
  }

  /** Where the escriturador posts its events for this account (acts and settlements). */
  setWebhook(url: string): Promise<void> {
    return this.call({ method: 'PUT', path: pathOf('registro', 'webhook'), body: { url } }, () => undefined);
  }

  private call<T>(request: ProviderRequest, parse: (reply: Reader) => T): Promise<T> {
    return this.http.call({ ...request, bearer: this.settings.apiKey }, parse, (message, status, refusalCode) =>
      new RegistrarError(isTransient(status) ? 'registrar_unavailable' : 'registrar_refused', message, status, refusalCode));
  }
}
