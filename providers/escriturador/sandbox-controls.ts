import { RegistrarError } from '../provider-errors';
import { pathOf, ProviderHttp, Reader } from '../provider-http';
import { readDuplicata, type EscrituradorSettings } from './client';
import type { Duplicata } from '../../domain/escriturador/port';

/**
 * The sandbox escriturador's controls (sandbox/escriturador/routes.ts): another financier acquiring
 * an NF-e's duplicatas, the payer paying one's boleto dinâmico, and an outage. Only the api's `/v1/sandbox/registrar/...` routes use them;
 * a production escriturador has no such routes.
 */
export class EscrituradorSandboxControls {
  private readonly http: ProviderHttp;

  constructor(private readonly settings: EscrituradorSettings) {
    this.http = new ProviderHttp(settings.url, settings.timeoutMs);
  }

  transferAway(nfeKey: string, holderDocument: string): Promise<Duplicata[]> {
    return this.call(pathOf('sandbox', 'transferencias'), { chave_nfe: nfeKey, titular: holderDocument }, (reply) => reply.at('duplicatas').list().map(readDuplicata));
  }

  /** The payer pays the boleto dinâmico of the installment (null: the key's first one unpaid); the escriturador then notifies the holder. */
  payerPays(nfeKey: string, installment: string | null, amount: string): Promise<Duplicata> {
    return this.call(pathOf('sandbox', 'liquidacoes'), { chave_nfe: nfeKey, n_dup: installment, valor: amount }, (reply) => readDuplicata(reply.at('duplicata')));
  }

  /** The moment the outage ends. */
  outage(seconds: number): Promise<string> {
    return this.call(pathOf('sandbox', 'outage'), { seconds }, (reply) => reply.at('until').text());
  }

  private call<T>(path: string, body: unknown, parse: (reply: Reader) => T): Promise<T> {
    return this.http.call({ method: 'POST', path, body, bearer: this.settings.apiKey }, parse, (message, status, refusalCode) =>
      new RegistrarError('registrar_unavailable', message, status, refusalCode));
  }
}
