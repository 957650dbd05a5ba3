export interface DevCa {
  ca: string;
  caKey: string;
  cert: string;
  key: string;
  caPem: string;
}
export function ensureDevCa(folder: string): Promise<DevCa>;
export function withDevCa(existing: string | undefined, caPem: string): string;
