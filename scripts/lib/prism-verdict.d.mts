export interface PrismExchange {
  operation: string; method: string; route: string; invalid: boolean; status: number;
  violations: { location: string[]; severity?: string; code?: string; message: string }[];
}
export function prismVerdict(exchanges: PrismExchange[], operations: { key: string }[]): {
  passed: boolean; line: string; responseViolations: PrismExchange[]; requestViolations: PrismExchange[];
};
