export type Principal =
  | {
      tokenType: 'client';
      credentialId: string;
      clientId: string;
      originatorId: string;
      env: 'prod' | 'sandbox';
      scopes: string[];
    }
  | {
      tokenType: 'user';
      userId: string;
      email: string;
      userKind: 'backoffice' | 'originator';
      originatorId: string | null;
      scopes: string[];
    };

export const CLIENT_SCOPES = [
  'stock:read', 'stock:write', 'simulation:create', 'operation:create', 'operation:read',
  'webhook:read', 'webhook:write', 'contract:read', 'contract:send', 'payable:read', 'payable:write', 'event:read', 'ledger:read',
] as const;

/**
 * `backoffice:operate`: operators who read decoded Temporal payloads through the codec endpoint.
 * `backoffice:act`: payer payments, contract re-dispatch, PIX retry; `backoffice:decide`: approve
 * and deny; `backoffice:admin`: staff accounts and the audit trail (issue #29's roles).
 */
export const BACKOFFICE_SCOPES = [
  'backoffice:read', 'backoffice:decide', 'backoffice:configure', 'backoffice:operate', 'backoffice:act', 'backoffice:admin',
] as const;
