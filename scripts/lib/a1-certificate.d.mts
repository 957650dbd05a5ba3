export function throwAwayA1(document: string, password: string, notAfter?: Date): Promise<string>;
export function pkcs12(certPem: string, keyPem: string, password: string): Buffer;
