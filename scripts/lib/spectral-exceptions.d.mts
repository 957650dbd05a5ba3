export interface SpectralFinding { code: string; path: (string | number)[] }
export function findingKey(finding: SpectralFinding): string;
export function writeExceptions(file: string, document: Record<string, unknown>, findings: SpectralFinding[]): Record<string, number>;
export function readExceptions(file: string): Map<string, string | undefined>;
export function compareWithExceptions(findings: SpectralFinding[], listed: Map<string, string | undefined>): {
  unlisted: string[]; gone: string[]; unreviewed: string[]; kept: number;
};
