import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { cnpj, nfeOf } from '../support/documents';
import { createDirect, directBody, operationsStack } from '../support/operations';
import { receivable } from '../support/simulate';
import { signAll, untilStatus } from '../support/lifecycle';
import { testDb } from '../support/stack';
import { setSandboxNfe } from '../support/sefaz';

/**
 * A retry of a failed PIX is a new PIX, which may come days after the check before the first one:
 * each NF-e is checked at SEFAZ again first, so an invoice cancelled meanwhile stops the money.
 */
describe('each NF-e checked at SEFAZ again before a PIX is retried', function () {
  this.timeout(150_000);
  const stack = operationsStack();

  it('an NF-e cancelled after the PIX was refused: the retry answers 409, the operation ends CANCELLED (nfe_cancelled) and no second PIX is ordered', async () => {
    const assignor = cnpj();
    const nfe = nfeOf(assignor);
    const body = directBody({ cnpj: assignor, email: `pix-reject-once+nfe-${randomUUID()}@example.com`, receivables: [receivable({ external_id: 'NF-CHECKED', ...nfe })] });
    const created = await createDirect(stack.client, stack.token, body);
    expect(created.status, created.text).to.equal(201);
    const id = created.body.id as string;
    await untilStatus(stack.client, stack.token, id, 'CONTRACT_SENT');
    await signAll(stack.client, stack.token, id);
    await untilStatus(stack.client, stack.token, id, 'DISBURSEMENT_FAILED', 60_000);

    await setSandboxNfe(stack.client, stack.token, nfe.nfe_key, 'cancelled', null);
    const retry = await stack.client.post(`/v1/backoffice/operations/${id}/retry-disbursement`, {}, { token: stack.backoffice });
    expect(retry.status, retry.text).to.equal(409);
    expect(retry.body).to.deep.equal({ detail: 'operation_cannot_retry_disbursement' });

    const read = await untilStatus(stack.client, stack.token, id, 'CANCELLED');
    expect(read.cancellation_reason).to.equal('nfe_cancelled');
    expect(await testDb()('disbursements').where({ operation_id: id }).select('id')).to.have.length(1);
    expect(await testDb()('nfe_checks').where({ operation_id: id }).orderBy('checked_at').pluck('status')).to.deep.equal(['passed', 'refused']);
  });
});
