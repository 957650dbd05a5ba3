import { randomUUID } from 'node:crypto';
import { Money } from '../domain/money';
import { FUNDING_LINE_DIRECTION, FUNDING_LINE_KINDS, type FundingLineKind } from '../domain/ledger/funding-postings';
import { asBody, oneOf, Refusal, requiredText } from './http';

/**
 * A line of a sandbox PSP account that no payment or PIX causes: a top-up into it, a sweep out of
 * it, or the PSP's fee, booked to a sub-account (the originator whose share it moves).
 */
export interface AccountLine {
  id: string;
  kind: FundingLineKind;
  amount: string;
  subAccount: string;
  at: string;
}

const AMOUNT = /^(?!0+\.00$)\d{1,16}\.\d{2}$/;

/** Reads `{ kind, amount, sub_account }`: 400 for anything else, as the sandbox's other controls. */
export function accountLineInput(raw: unknown): Pick<AccountLine, 'kind' | 'amount' | 'subAccount'> {
  const body = asBody(raw);
  const amount = requiredText(body, 'amount');
  if (!AMOUNT.test(amount)) throw new Refusal(400, 'invalid_request', 'amount must be a positive string with two decimals, e.g. "1234.56"');
  return { kind: oneOf(body, 'kind', FUNDING_LINE_KINDS), amount, subAccount: requiredText(body, 'sub_account') };
}

/** The account's own lines, kept in the order booked; `snapshot()`/`restore()` carry them across restarts. */
export class AccountLines {
  private lines: AccountLine[] = [];

  add(input: Pick<AccountLine, 'kind' | 'amount' | 'subAccount'>, now: Date): AccountLine {
    const line = { ...input, id: randomUUID(), at: now.toISOString() };
    this.lines.push(line);
    return line;
  }

  /** Booked in [from, to), oldest first. */
  between(from: Date, to: Date): AccountLine[] {
    return this.lines.filter((line) => Date.parse(line.at) >= from.getTime() && Date.parse(line.at) < to.getTime());
  }

  /** What the lines booked before `at` added to the balance (top-ups in, the rest out). */
  netBefore(at: Date): Money {
    return Money.sum(this.between(new Date(0), at).map((line) => (FUNDING_LINE_DIRECTION[line.kind] === 'in' ? Money.of(line.amount) : Money.ZERO.minus(Money.of(line.amount)))));
  }

  snapshot(): AccountLine[] {
    return [...this.lines];
  }

  restore(lines: AccountLine[] | undefined): void {
    this.lines = [...(lines ?? [])];
  }
}
