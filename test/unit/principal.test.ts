import { expect } from 'chai';
import { principalLabel, Principal } from '../../domain/principal';
import { auditActorOf } from '../../domain/audit-chain';

const client: Principal = { tokenType: 'client', credentialId: 'cred-1', clientId: 'cli-1', originatorId: 'org-1', env: 'sandbox', scopes: [] };
const user: Principal = { tokenType: 'user', userId: 'usr-1', email: 'ana@example.com', userKind: 'backoffice', originatorId: null, scopes: [] };

describe('who acted (domain/principal.ts)', () => {
  it('labels an API client by the credential its token names, and a user by its id', () => {
    expect(principalLabel(client)).to.equal('credential:cred-1');
    expect(principalLabel(user)).to.equal('user:usr-1');
  });

  it('keeps the audit row\'s structured actor, whose shape stored hashes cover', () => {
    expect(auditActorOf(client)).to.deep.equal({ type: 'client', id: 'cred-1', client_id: 'cli-1' });
    expect(auditActorOf(user)).to.deep.equal({ type: 'user', id: 'usr-1', email: 'ana@example.com' });
    expect(auditActorOf(undefined)).to.deep.equal({ type: 'system', id: 'anonymous' });
  });
});
