import { Router } from 'express';
import { asBody, optionalText, optionalUrl, Refusal, requiredText } from '../http';
import type { Payment, PixLedger, Recipient } from './payments';
import { accountLineInput, type AccountLine } from '../account-lines';
import { FUNDING_LINE_DIRECTION } from '../../domain/ledger/funding-postings';

/** Money stays a string end to end: positive, exactly two decimals, never parsed into a float. */
const AMOUNT = /^(?!0+\.00$)\d{1,15}\.\d{2}$/;

function amountOf(body: Record<string, unknown>): string {
  const amount = body.amount;
  if (typeof amount !== 'string' || !AMOUNT.test(amount)) throw new Refusal(422, 'invalid_amount', 'amount must be a positive string with two decimals, e.g. "1234.56"');
  return amount;
}

function recipientOf(raw: unknown): Recipient {
  const body = asBody(raw, 'recipient');
  const pixKey = optionalText(body, 'pix_key');
  const bankBody = body.bank === undefined || body.bank === null ? null : asBody(body.bank, 'recipient.bank');
  if ((pixKey === null) === (bankBody === null)) throw new Refusal(422, 'invalid_recipient', 'recipient needs exactly one of pix_key or bank');
  return {
    name: requiredText(body, 'name'),
    document: requiredText(body, 'document'),
    email: optionalText(body, 'email'),
    pixKey,
    bank: bankBody && {
      code: requiredText(bankBody, 'code'),
      agency: requiredText(bankBody, 'agency'),
      account: requiredText(bankBody, 'account'),
      type: optionalText(bankBody, 'type') ?? 'CC',
    },
  };
}

export function presentPayment(payment: Payment) {
  return {
    id: payment.id,
    idempotency_key: payment.idempotencyKey,
    status: payment.status,
    amount: payment.amount,
    settled_amount: payment.settledAmount,
    rejection_reason: payment.rejectionReason,
    created_at: payment.createdAt,
    settled_at: payment.settledAt,
    request_count: payment.requestCount,
  };
}

const paymentLine = (payment: Payment) => ({
  kind: 'payment', line_id: payment.id, end_to_end_id: payment.endToEndId ?? null, payment_id: payment.id, idempotency_key: payment.idempotencyKey,
  sub_account: null, direction: 'debit', amount: payment.settledAmount, settled_at: payment.settledAt,
});

const accountLine = (line: AccountLine) => ({
  kind: line.kind, line_id: line.id, end_to_end_id: null, payment_id: null, idempotency_key: null, sub_account: line.subAccount,
  direction: FUNDING_LINE_DIRECTION[line.kind] === 'in' ? 'credit' : 'debit', amount: line.amount, settled_at: line.at,
});

export function pixRoutes(ledger: PixLedger): Router {
  const router = Router();

  router.post('/payments', (req, res) => {
    const body = asBody(req.body);
    const { value, replayed } = ledger.create({
      idempotencyKey: requiredText(body, 'idempotency_key'),
      amount: amountOf(body),
      recipient: recipientOf(body.recipient),
      callbackUrl: optionalUrl(body, 'callback_url'),
    });
    res.status(replayed ? 200 : 201).set('Idempotent-Replayed', String(replayed)).json({ payment: presentPayment(value) });
  });

  // The account's statement: each payment settled in [from, to) as a line out, and the account's own
  // lines (top-ups in, sweeps and fees out), oldest first, paged, and the balance at `to`.
  router.get('/statement', (req, res) => {
    const from = new Date(String(req.query.from ?? ''));
    const to = new Date(String(req.query.to ?? ''));
    if (Number.isNaN(from.getTime()) || Number.isNaN(to.getTime())) throw new Refusal(400, 'invalid_request', 'from and to query parameters are required (RFC 3339)');
    const page = Number(req.query.page ?? 0);
    const size = Number(req.query.page_size ?? 100);
    if (!Number.isInteger(page) || page < 0 || !Number.isInteger(size) || size < 1 || size > 1000) throw new Refusal(400, 'invalid_request', 'page is a whole number from 0, page_size from 1 to 1000');
    const { payments, accountLines, closingBalance } = ledger.statement(from, to);
    const lines = [...payments.map(paymentLine), ...accountLines.map(accountLine)].sort((a, b) => Date.parse(a.settled_at!) - Date.parse(b.settled_at!));
    res.json({
      from: from.toISOString(), to: to.toISOString(), page, page_size: size, total_pages: Math.ceil(lines.length / size),
      closing_balance: closingBalance.toString(),
      lines: lines.slice(page * size, (page + 1) * size),
    });
  });

  // Not a provider route: books a top-up, a sweep or a fee on the account now (sandbox/README.md).
  router.post('/sandbox/statement-lines', (req, res) => {
    res.status(201).json(accountLine(ledger.accountLines.add(accountLineInput(req.body), new Date())));
  });

  router.get('/payments/:id', (req, res) => {
    res.json({ payment: presentPayment(ledger.find(req.params.id)) });
  });

  // Not a provider route: lets a test make the provider forget a payment (sandbox/README.md).
  router.post('/payments/:id/forget', (req, res) => {
    ledger.forget(req.params.id);
    res.status(204).end();
  });

  router.get('/payments', (req, res) => {
    const key = req.query.idempotency_key;
    if (typeof key !== 'string' || key === '') throw new Refusal(400, 'invalid_request', 'idempotency_key query parameter is required');
    res.json({ payments: ledger.withKey(key).map(presentPayment) });
  });

  return router;
}
