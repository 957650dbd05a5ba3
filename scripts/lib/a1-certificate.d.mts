export function throwAwayA1(document: string, password: string, notAfter?: Date): Promise<string>;
