import { expect } from 'chai';
import { HttpEsignProvider, NewDocument, readSignatureCallback } from '../../providers/esign-client';
import { ApiClient } from '../support/http';
import { sharedSandbox } from '../support/stack';
import { CallbackReceiver, signThroughPage, unique } from './support';

describe('sandbox e-sign provider through the adapter', () => {
  let esign: HttpEsignProvider;
  let sandbox: ApiClient;
  let receiver: CallbackReceiver;

  before(async () => {
    const running = await sharedSandbox();
    esign = new HttpEsignProvider(running.esignUrl, 5_000);
    sandbox = new ApiClient(running.esignUrl);
    receiver = await CallbackReceiver.start();
  });
  after(() => receiver.close());

  function newDocument(overrides: Partial<NewDocument> = {}): NewDocument {
    return {
      type: 'FULL_CONTRACT', embedded: false, assignorEmail: `${unique('assignor')}@example.com`,
      reference: unique('contract'), callbackUrl: receiver.url, idempotencyKey: unique('create'), ...overrides,
    };
  }

  async function documentWithSigners(overrides: Partial<NewDocument> = {}) {
    const input = newDocument(overrides);
    const created = await esign.createDocument(input);
    const signers = await esign.addSigners(created.documentId, [
      { name: 'Ana Assignor', email: `${unique('ana')}@example.com` },
      { name: 'Bruno Witness', email: `${unique('bruno')}@example.com` },
    ], unique('signers'));
    return { ...created, signers, reference: input.reference };
  }

  const mailbox = async (documentId: string) => (await sandbox.get(`/mailbox?document_id=${documentId}`)).body.messages as { to: string; sign_url: string }[];

  it('when each signer signs through the page, the callback arrives and the signer reads signed with no link', async () => {
    const document = await documentWithSigners();
    const before = await esign.getDocument(document.documentId);
    expect(before.documentStatus).to.equal('running');
    expect(before.signers.map((s) => [s.status, s.signed])).to.deep.equal([['pending', false], ['pending', false]]);
    expect(before.signers.every((s) => s.signUrl?.includes('/esign/sign/'))).to.equal(true);

    const signed = await signThroughPage(before.signers[0].signUrl!);
    expect(signed.status).to.equal(200);
    const callback = await receiver.next((body) => body.document_id === document.documentId);
    expect(readSignatureCallback(callback)).to.deep.equal({ documentId: document.documentId, reference: document.reference, signerId: before.signers[0].signerId });
    const half = await esign.getDocument(document.documentId);
    expect(half.documentStatus).to.equal('running');
    expect(half.signers[0]).to.include({ status: 'signed', signed: true, signUrl: null });
    expect(half.signers[1]).to.include({ status: 'pending', signed: false });

    await signThroughPage(before.signers[1].signUrl!);
    const done = await esign.getDocument(document.documentId);
    expect(done.documentStatus).to.equal('closed');
    expect(done.signers.every((s) => s.signed && s.signUrl === null)).to.equal(true);
  });

  it('signing twice changes nothing', async () => {
    const document = await documentWithSigners();
    await signThroughPage(document.signers[0].signUrl!);
    const again = await fetch(document.signers[0].signUrl!, { method: 'POST', body: new URLSearchParams({ decision: 'sign' }) });
    expect(await again.text()).to.contain('already signed');
    expect((await esign.getDocument(document.documentId)).documentStatus).to.equal('running');
  });

  it('mails each signer its link in e-mail mode, and nobody in embedded mode', async () => {
    const mailed = await documentWithSigners();
    const messages = await mailbox(mailed.documentId);
    expect(messages.map((m) => m.to)).to.deep.equal(mailed.signers.map((s) => s.email));
    expect(messages.map((m) => m.sign_url)).to.deep.equal(mailed.signers.map((s) => s.signUrl));

    const embedded = await documentWithSigners({ embedded: true, type: 'ADDENDUM' });
    expect(await mailbox(embedded.documentId)).to.deep.equal([]);
    expect(embedded.signers.every((s) => s.signUrl !== null)).to.equal(true);
  });

  it('returns the same document and signers when a create or an add is repeated with its idempotency key', async () => {
    const input = newDocument();
    const first = await esign.createDocument(input);
    const second = await esign.createDocument(input);
    expect(second.documentId).to.equal(first.documentId);

    const key = unique('signers');
    const signers = [{ name: 'Carla', email: `${unique('carla')}@example.com` }];
    const added = await esign.addSigners(first.documentId, signers, key);
    const repeated = await esign.addSigners(first.documentId, signers, key);
    expect(repeated.map((s) => s.signerId)).to.deep.equal(added.map((s) => s.signerId));
    expect((await esign.getDocument(first.documentId)).signers).to.have.length(1);
  });

  it('updates a signer and mails the new address', async () => {
    const document = await documentWithSigners();
    const email = `${unique('new-ana')}@example.com`;
    const updated = await esign.updateSigner(document.documentId, document.signers[0].signerId, { name: 'Ana Maria', email, auth: 'on_screen' });
    expect(updated).to.include({ name: 'Ana Maria', email, signed: false });
    expect((await mailbox(document.documentId)).map((m) => m.to)).to.include(email);
  });

  it('passes the template inventory check of a healthy document', async () => {
    const document = await documentWithSigners({ type: 'ADDENDUM' });
    await esign.checkTemplates(document.documentId);
  });

  it('voids a document: its signing page refuses, and voiding again or an unknown document still resolves', async () => {
    const document = await documentWithSigners();
    await esign.voidDocument(document.documentId);
    expect((await esign.getDocument(document.documentId)).documentStatus).to.equal('canceled');

    const page = await fetch(document.signers[0].signUrl!);
    expect(page.status).to.equal(410);
    const post = await fetch(document.signers[0].signUrl!, { method: 'POST', body: new URLSearchParams({ decision: 'sign' }) });
    expect(post.status).to.equal(410);
    expect((await esign.getDocument(document.documentId)).signers[0].signed).to.equal(false);

    await esign.voidDocument(document.documentId);
    await esign.voidDocument('00000000-0000-0000-0000-000000000000');
  });

  it('answers an unknown signing link with 404 and keeps the page out of caches and referrers', async () => {
    const unknown = await fetch(`${(await sharedSandbox()).esignUrl}/sign/not-a-real-token`);
    expect(unknown.status).to.equal(404);
    const document = await documentWithSigners();
    const page = await fetch(document.signers[0].signUrl!);
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.headers.get('referrer-policy')).to.equal('no-referrer');
  });

  it('retries a signature callback the receiver refuses, until it is accepted', async () => {
    const refusing = await CallbackReceiver.start();
    try {
      const document = await documentWithSigners({ callbackUrl: refusing.url });
      refusing.refuseNext(2);
      await signThroughPage(document.signers[0].signUrl!);
      const accepted = await refusing.next();
      expect(refusing.attempts).to.deep.equal([accepted, accepted, accepted]);
    } finally {
      await refusing.close();
    }
  });
});
