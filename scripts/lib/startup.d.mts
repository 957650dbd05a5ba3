import type { ChildProcess } from 'node:child_process';

export const STARTUP_BOUNDS_MS: { postgres: number; temporalDev: number; temporalServer: number; temporalWeb: number };
export class OutputTail {
  constructor(maxChars?: number);
  push(chunk: unknown): void;
  follow(child: ChildProcess): this;
  describe(): string;
}
export class StartupFailed extends Error {}
export function waitForChildPort(options: { child: ChildProcess; port: number; timeoutMs: number; what: string; tail: OutputTail }): Promise<void>;
export function bounded<T>(promise: Promise<T>, options: { timeoutMs: number; what: string; tail: OutputTail; onTimeout?: () => void }): Promise<T>;
