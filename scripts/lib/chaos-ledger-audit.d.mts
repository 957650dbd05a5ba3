export function auditLedger(args: {
  db: { query: (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };
  since: number;
  check: (name: string, expected: unknown, actual: unknown) => void;
}): Promise<void>;
