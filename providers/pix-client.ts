import { isTransient, PixError } from './provider-errors';
import { pathOf, ProviderHttp, Reader } from './provider-http';
import type { PixDestination, PixStatus } from '../domain/pix-transfer';

export interface PixRecipient {
  name: string;
  /** CPF or CNPJ, digits only. */
  document: string;
  /** The assignor's e-mail (the sandbox reads its magic values from it). */
  email: string | null;
  destination: PixDestination;
}

export interface PixPayment {
  paymentId: string;
  idempotencyKey: string;
  status: PixStatus;
  amount: string;
  /** Null until settled; "0.00" when rejected. */
  settledAmount: string | null;
  rejectionReason: string | null;
}

/** A provider callback; a hint like any other: `getPayment` is the authority. */
export interface PixSettlement {
  paymentId: string;
  /**
   * Echoed by the provider when it sends it. A payment that settles at once calls back before the
   * activity that ordered it has stored the payment id; the key was stored before the order.
   */
  idempotencyKey: string | null;
  status: Exclude<PixStatus, 'PENDING'>;
  settledAmount: string;
}

export interface PixProvider {
  /** The same idempotency key always yields the same single payment, however often it is sent. */
  createPayment(idempotencyKey: string, amount: string, recipient: PixRecipient, callbackUrl: string | null): Promise<PixPayment>;
  getPayment(paymentId: string): Promise<PixPayment>;
  /** The payments the provider holds under an idempotency key (none when it never saw or has lost it). */
  paymentsWithKey(idempotencyKey: string): Promise<PixPayment[]>;
}

/** Only the provider's explicit final words count; anything else is still in flight. */
function statusOf(providerStatus: string): PixStatus {
  const status = providerStatus.trim().toUpperCase();
  return status === 'SETTLED' || status === 'REJECTED' ? status : 'PENDING';
}

function readPayment(reply: Reader): PixPayment {
  return {
    paymentId: reply.at('id').text(),
    idempotencyKey: reply.at('idempotency_key').text(),
    status: statusOf(reply.at('status').text()),
    amount: reply.at('amount').money(),
    settledAmount: reply.at('settled_amount').moneyOrNull(),
    rejectionReason: reply.at('rejection_reason').textOrNull(),
  };
}

export function readSettlementCallback(body: unknown): PixSettlement | null {
  const reply = new Reader(body, 'callback');
  try {
    const status = statusOf(reply.at('status').text());
    if (status === 'PENDING') return null;
    return {
      paymentId: reply.at('payment_id').text(), idempotencyKey: reply.at('idempotency_key').textOrNull(), status,
      settledAmount: reply.at('settled_amount').money(),
    };
  } catch {
    return null;
  }
}

function recipientBody(recipient: PixRecipient) {
  const { destination } = recipient;
  return {
    name: recipient.name,
    document: recipient.document,
    email: recipient.email,
    ...(destination.kind === 'pix_key'
      ? { pix_key: destination.key }
      : { bank: { code: destination.code, agency: destination.agency, account: destination.account, type: destination.type } }),
  };
}

export class HttpPixProvider implements PixProvider {
  private readonly http: ProviderHttp;

  constructor(baseUrl: string, timeoutMs: number) {
    this.http = new ProviderHttp(baseUrl, timeoutMs);
  }

  createPayment(idempotencyKey: string, amount: string, recipient: PixRecipient, callbackUrl: string | null): Promise<PixPayment> {
    const body = { idempotency_key: idempotencyKey, amount, recipient: recipientBody(recipient), callback_url: callbackUrl };
    return this.http.call({ method: 'POST', path: pathOf('payments'), body, idempotencyKey }, (r) => readPayment(r.at('payment')), (message, status) =>
      new PixError(isTransient(status) ? 'pix_unavailable' : 'pix_rejected', message, status));
  }

  getPayment(paymentId: string): Promise<PixPayment> {
    return this.http.call({ method: 'GET', path: pathOf('payments', paymentId) }, (r) => readPayment(r.at('payment')), (message, status) =>
      new PixError('pix_unavailable', message, status));
  }

  paymentsWithKey(idempotencyKey: string): Promise<PixPayment[]> {
    const path = `${pathOf('payments')}?idempotency_key=${encodeURIComponent(idempotencyKey)}`;
    return this.http.call({ method: 'GET', path }, (r) => r.at('payments').list().map(readPayment), (message, status) =>
      new PixError('pix_unavailable', message, status));
  }
}
