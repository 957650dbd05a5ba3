/**
 * Polls `probe` until it holds and answers when the first probe that held was sent, in ms from
 * the call: a request sent that long after the change already saw it (its own latency, which a
 * busy machine stretches, is not the cache's). Fails when no probe sent within `budgetMs` holds.
 */
export async function within(budgetMs: number, probe: () => Promise<boolean>): Promise<number> {
  const started = performance.now();
  for (;;) {
    const sent = performance.now() - started;
    if (sent > budgetMs) throw new Error(`not within ${budgetMs} ms`);
    if (await probe()) return sent;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
