export function startEmbeddedPostgres(options: { dataDir: string; port: number; fast?: boolean; fresh?: boolean; log?: (message: string) => void }): Promise<{
  dataDir: string; url(database: string): string; stop(): Promise<void>;
}>;
