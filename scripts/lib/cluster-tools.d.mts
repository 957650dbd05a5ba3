export function ensureTemporalWeb(): string;
