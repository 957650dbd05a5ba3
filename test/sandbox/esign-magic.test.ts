import { expect } from 'chai';
import { HttpEsignProvider, NewDocument } from '../../providers/esign-client';
import { EsignError, EsignErrorCode } from '../../providers/provider-errors';
import { sharedSandbox } from '../support/stack';
import { rejectionOf, startSilentServer, unique } from './support';

/** A fresh address for a magic value: the `+tag` gives it its own `-once` / `-x<N>` counter. */
const magicEmail = (magic: string) => `${magic}+${unique('t')}@example.com`;

function expectEsignError(err: unknown, code: EsignErrorCode, retryable: boolean): void {
  expect(err).to.be.instanceOf(EsignError);
  expect(err).to.include({ code, retryable });
}

describe('sandbox e-sign magic values and adapter failures', () => {
  let esign: HttpEsignProvider;

  before(async () => {
    esign = new HttpEsignProvider((await sharedSandbox()).esignUrl, 5_000);
  });

  const document = (assignorEmail: string): NewDocument => ({
    type: 'FULL_CONTRACT', embedded: true, assignorEmail, reference: unique('contract'), callbackUrl: null, idempotencyKey: unique('create'),
  });
  const signer = (email = `${unique('signer')}@example.com`) => [{ name: 'Ana', email }];

  it('refuses to create a document for esign-fail-create, as esign_create_failed that is not retryable', async () => {
    const err = await rejectionOf(esign.createDocument(document(magicEmail('esign-fail-create'))));
    expectEsignError(err, 'esign_create_failed', false);
    expect(err).to.include({ providerStatus: 422 });
  });

  it('refuses to add signers when the assignor or a signer is esign-fail-signer', async () => {
    const byAssignor = await esign.createDocument(document(magicEmail('esign-fail-signer')));
    expectEsignError(await rejectionOf(esign.addSigners(byAssignor.documentId, signer(), unique('add'))), 'esign_add_signer_failed', false);

    const bySigner = await esign.createDocument(document(`${unique('assignor')}@example.com`));
    expectEsignError(await rejectionOf(esign.addSigners(bySigner.documentId, signer(magicEmail('esign-fail-signer')), unique('add'))), 'esign_add_signer_failed', false);
    expect((await esign.getDocument(bySigner.documentId)).signers).to.deep.equal([]);
  });

  it('refuses to update a signer for esign-fail-update', async () => {
    const created = await esign.createDocument(document(magicEmail('esign-fail-update')));
    const [added] = await esign.addSigners(created.documentId, signer(), unique('add'));
    expectEsignError(await rejectionOf(esign.updateSigner(created.documentId, added.signerId, { auth: 'advanced' })), 'esign_update_signer_failed', false);
  });

  it('fails the template inventory check for esign-fail-template', async () => {
    const created = await esign.createDocument(document(magicEmail('esign-fail-template')));
    expectEsignError(await rejectionOf(esign.checkTemplates(created.documentId)), 'esign_template_inventory_failed', false);
  });

  it('answers 5xx on reading signers for esign-unavailable, as a retryable esign_unavailable', async () => {
    const created = await esign.createDocument(document(magicEmail('esign-unavailable')));
    const err = await rejectionOf(esign.getDocument(created.documentId));
    expectEsignError(err, 'esign_unavailable', true);
    expect(err).to.include({ providerStatus: 503 });
  });

  it('fails only the first time with -once, so a re-dispatch succeeds; another +tag fails afresh', async () => {
    const email = magicEmail('esign-fail-create-once');
    expectEsignError(await rejectionOf(esign.createDocument(document(email))), 'esign_create_failed', false);
    expect((await esign.createDocument(document(email))).documentStatus).to.equal('running');
    expectEsignError(await rejectionOf(esign.createDocument(document(magicEmail('esign-fail-create-once')))), 'esign_create_failed', false);
  });

  it('fails the first N times with -x<N>', async () => {
    const created = await esign.createDocument(document(magicEmail('esign-unavailable-x2')));
    for (let i = 0; i < 2; i += 1) expectEsignError(await rejectionOf(esign.getDocument(created.documentId)), 'esign_unavailable', true);
    expect((await esign.getDocument(created.documentId)).documentId).to.equal(created.documentId);
  });

  it('maps an unreachable provider and a silent one to the failing step, retryable', async () => {
    const unreachable = new HttpEsignProvider('http://127.0.0.1:9/esign', 1_000);
    const err = await rejectionOf(unreachable.createDocument(document(`${unique('a')}@example.com`)));
    expectEsignError(err, 'esign_create_failed', true);
    expect(err).to.include({ providerStatus: null });

    const silent = await startSilentServer();
    try {
      const slow = new HttpEsignProvider(silent.url, 200);
      const timedOut = await rejectionOf(slow.getDocument('any'));
      expectEsignError(timedOut, 'esign_unavailable', true);
      expect((timedOut as Error).message).to.contain('no answer within 200 ms');
    } finally {
      await silent.close();
    }
  });
});
