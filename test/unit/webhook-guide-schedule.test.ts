import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DEFAULT_WEBHOOK_SCHEDULE_MS } from '../../platform/config/config';

const GUIDE = path.resolve(__dirname, '..', '..', 'api', 'web', 'docs', 'guides', 'webhook-signatures.html');

/** A wait as the guide writes it: `5 s`, `5 min`, `2 h`. */
function spoken(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}

describe('the webhooks guide\'s retry timing', () => {
  it('is the delivery schedule the worker runs by default: a first attempt at once, then each wait in order', () => {
    const text = readFileSync(GUIDE, 'utf8').replace(/\s+/g, ' ');
    const [first, ...waits] = DEFAULT_WEBHOOK_SCHEDULE_MS;
    expect(first, 'the first attempt waits for nothing').to.equal(0);
    const said = `retried after ${spoken(waits[0])}, then ${waits.slice(1, -1).map(spoken).join(', ')} and ${spoken(waits.at(-1)!)} (${DEFAULT_WEBHOOK_SCHEDULE_MS.length} attempts in all)`;
    expect(text).to.contain(said);
    expect(text).to.not.contain('retried immediately');
  });
});
