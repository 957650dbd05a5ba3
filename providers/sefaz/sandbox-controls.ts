import type { PayerEvent } from '../../domain/sefaz/payer-events';
import type { IssuerCertificate, NfeStatus } from '../../domain/sefaz/status-codes';
import { SefazError } from '../provider-errors';
import { pathOf, ProviderHttp } from '../provider-http';

/**
 * The sandbox SEFAZ's controls (sandbox/sefaz/routes.ts): what a key answers from now on, and an
 * outage. Only the api's `/v1/sandbox/...` routes use them; production has no such service.
 */
export class SefazSandboxControls {
  private readonly http: ProviderHttp;

  constructor(sandboxUrl: string, timeoutMs: number) {
    this.http = new ProviderHttp(sandboxUrl, timeoutMs);
  }

  private static fail(message: string, status: number | null): Error {
    return new SefazError('sefaz_unavailable', message, status);
  }

  setKey(key: string, status: NfeStatus, payerEvent: PayerEvent | null, issuerCertificate: IssuerCertificate = 'delegated'): Promise<void> {
    return this.http.call({ method: 'POST', path: `/sandbox/nfe${pathOf(key)}`, body: { status, payer_event: payerEvent, issuer_certificate: issuerCertificate } }, () => undefined, SefazSandboxControls.fail);
  }

  /** The moment the outage ends. */
  outage(seconds: number): Promise<string> {
    return this.http.call({ method: 'POST', path: '/sandbox/outage', body: { seconds } }, (reply) => reply.at('until').text(), SefazSandboxControls.fail);
  }
}
