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

/**
 * Who acted, as the one text every record of it uses (a cancel's or retry's requester, a payer
 * payment's recorder, a rate-limit budget): `user:<user id>`, or `credential:<credential id>` for
 * an API client, since the credential, not the client, is what its token names and what is revoked.
 */
export function principalLabel(principal: Principal): string {
  return principal.tokenType === 'user' ? `user:${principal.userId}` : `credential:${principal.credentialId}`;
}

export const CLIENT_SCOPES = [
  'stock:read', 'stock:write', 'simulation:create', 'operation:create', 'operation:read',
  'webhook:read', 'webhook:write', 'contract:read', 'contract:send', 'payable:read', 'payable:write', 'event:read', 'ledger:read',
] as const;

/**
 * `backoffice:operate`: operators who read decoded Temporal payloads through the codec endpoint.
 * `backoffice:act`: payer payments, contract re-dispatch, PIX retry; `backoffice:decide`: approve
 * and deny; `backoffice:admin`: staff accounts and the audit trail.
 */
export const BACKOFFICE_SCOPES = [
  'backoffice:read', 'backoffice:decide', 'backoffice:configure', 'backoffice:operate', 'backoffice:act', 'backoffice:admin',
] as const;
