import { Money } from '../money';
import type { Direction } from './chart';

export interface StatementEntry {
  postedAt: Date;
  transactionId: string;
  kind: string;
  direction: Direction;
  amount: Money;
}

export interface StatementLine extends StatementEntry {
  /** The account's balance on its normal side after this entry. */
  balance: Money;
}

/** Each posted entry with the running balance it leaves, from the opening balance on. */
export function statementLines(normal: Direction, opening: Money, entries: readonly StatementEntry[]): StatementLine[] {
  let balance = opening;
  return entries.map((entry) => {
    balance = entry.direction === normal ? balance.plus(entry.amount) : balance.minus(entry.amount);
    return { ...entry, balance };
  });
}
