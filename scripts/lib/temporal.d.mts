export function startTemporalDev(options: {
  binary: string; port: number; uiPort: number; dbFile?: string | null; headless?: boolean; codecEndpoint?: string | null;
  dynamicConfig?: Record<string, unknown>; log?: (text: string) => void;
}): Promise<{ address: string; webUrl: string | null; death(): string | null; stop(): Promise<void> }>;
