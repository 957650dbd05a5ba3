export interface FuzzRunReport {
  schemathesis_version: string;
  seed: string | number | null;
  complete: boolean;
  stop_reason: string;
  exit_code: number;
  operations: { selected: number; tested: number } | null;
  test_cases?: { generated: number };
  failures: { title: string; count: number; operations: string[] }[];
  errors: { title: string; count: number }[];
  warnings: Record<string, string[]>;
}
export function fuzzVerdict(report: FuzzRunReport, options: { reportFile: string; accepted?: Record<string, Record<string, string>> }): { passed: boolean; line: string };
