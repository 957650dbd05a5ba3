export function freePort(): Promise<number>;
export function freeLowPort(): Promise<number>;
export function portOpen(port: number, host?: string): Promise<boolean>;
