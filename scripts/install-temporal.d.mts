/** The Temporal CLI's path, installed into .tools/ on first use. */
export function ensureTemporal(): string;
