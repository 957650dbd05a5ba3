const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

export function summary(latencies: number[]): { count: number; p50: number; p99: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50: quantile(sorted, 0.5) ?? 0, p99: quantile(sorted, 0.99) ?? 0, max: sorted[sorted.length - 1] ?? 0 };
}
