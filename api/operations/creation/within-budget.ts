/**
 * Creation's questions to an outside system: `atOnce` at a time (hundreds of receivables must not
 * open hundreds of connections), none started once `budgetMs` is spent. Each answer sits in its
 * item's place; an item not asked in time has null.
 */
export async function askWithinBudget<T, A>(items: readonly T[], budgetMs: number, atOnce: number, ask: (item: T) => Promise<A>): Promise<(A | null)[]> {
  const answers: (A | null)[] = items.map(() => null);
  const until = performance.now() + budgetMs;
  let next = 0;
  const worker = async () => {
    while (next < items.length && performance.now() < until) {
      const at = next++;
      answers[at] = await ask(items[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, worker));
  return answers;
}
