export function startTemporalWeb(options: {
  binary: string;
  dir: string;
  temporalAddress: string | undefined;
  port: number;
  codecEndpoint?: string | null;
  logFile: string;
}): Promise<{ url: string; stop(): Promise<void> }>;
