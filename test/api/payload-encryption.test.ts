import { expect } from 'chai';
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { temporal as proto } from '@temporalio/proto';
import { createDirect, directBody, startOperationsTest } from '../support/operations';
import { signersOf, signAll, untilStatus } from '../support/lifecycle';
import { closeTemporal, connectTestClient, temporal } from '../support/temporal';
import { cnpj } from '../support/documents';
import { testConfig } from '../support/stack';
import { EncryptionCodec } from '../../platform/crypto/payload-codec';
import { CipherRing, newCipherKeyEntry, parseCipherKeys } from '../../platform/crypto/cipher-ring';

/**
 * Every payload of ours in a history (anything with `metadata` and `data`), wherever it sits.
 * Not ours, hence plain and free of personal data (the byte scan covers them): search attributes,
 * which the server indexes, and the SDK's own bookkeeping in markers (patch ids, local activity
 * timing) beside the local activity's `result`.
 */
function payloadsIn(node: unknown, found: Payload[] = []): Payload[] {
  if (node && typeof node === 'object' && !ArrayBuffer.isView(node)) {
    const record = node as Record<string, unknown>;
    if ('metadata' in record && 'data' in record && ArrayBuffer.isView(record.data)) found.push(record as Payload);
    else if ('markerName' in record) payloadsIn((record.details as Record<string, unknown> | undefined)?.result, found);
    else for (const [key, value] of Object.entries(record)) if (key !== 'searchAttributes') payloadsIn(value, found);
  }
  return found;
}

const text = (payloads: Payload[]) => payloads.map((p) => Buffer.from(p.data ?? []).toString('utf8')).join('\n');

/** Issue #13: what the operation workflow carries about people is in history only encrypted. */
describe('Temporal payloads are encrypted with the key ring', function () {
  this.timeout(90_000);
  let raw: Client;
  before(async () => { raw = await connectTestClient(false); });
  after(async () => {
    await raw.connection.close();
    await closeTemporal();
  });

  /** The histories of every run of a workflow, newest first: a run that continued as new holds only its own part. */
  async function everyRun(workflowId: string) {
    const histories = [];
    for (let runId: string | undefined; ;) {
      const history = await raw.workflow.getHandle(workflowId, runId).fetchHistory();
      histories.push(history);
      runId = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
      if (!runId) return histories;
    }
  }

  it('a PAID operation\'s history shows no name, e-mail, document, bank account or signing URL without the codec, and decodes with it', async () => {
    const { client, token } = await startOperationsTest();
    const document = cnpj();
    const person = { name: 'Zuleica Cifrada Comercio Ltda', email: 'zuleica.cifrada@comercial.example', account: '7654321-9', agency: '4321' };
    const res = await createDirect(client, token, directBody({
      name: person.name, email: person.email, cnpj: document, bank: { code: '341', agency: person.agency, account: person.account, type: 'CC' },
    }));
    expect(res.status, res.text).to.equal(201);
    const signUrls = (await signersOf(client, token, res.body.id)).signers.map((s: { sign_url: string }) => s.sign_url);
    expect(signUrls).to.have.length.greaterThan(0);
    await signAll(client, token, res.body.id);
    await untilStatus(client, token, res.body.id, 'PAID', 30_000);

    const histories = await everyRun(`operation-${res.body.id}`);
    const bytes = histories.map((h) => Buffer.from(proto.api.history.v1.History.encode(h).finish()).toString('latin1')).join('');
    for (const secret of [person.name, person.email, document, person.account, ...signUrls, new URL(signUrls[0]).pathname]) {
      expect(bytes, secret).not.to.include(secret);
    }
    const stored = histories.flatMap((h) => payloadsIn(h));
    expect(stored.length).to.be.greaterThan(5);
    for (const payload of stored) expect(Buffer.from(payload.metadata!.encoding!).toString()).to.equal('binary/encrypted');

    const decoded = text(await new EncryptionCodec(new CipherRing(testConfig().payloadKeys)).decode(stored));
    expect(decoded).to.include(res.body.id).and.to.include(res.body.display_number);
    for (const url of signUrls) expect(decoded).not.to.include(url);
    expect(decoded).not.to.include('sign_url');
  });

  it('failure messages are in history only encoded, and decode with the codec', async () => {
    const { client, token } = await startOperationsTest();
    const res = await createDirect(client, token, directBody({ email: 'esign-fail-create@comercial.example' }));
    await untilStatus(client, token, res.body.id, 'CONTRACT_ERROR');
    const history = await raw.workflow.getHandle(`operation-${res.body.id}`).fetchHistory();
    const failures = history.events!.map((e) => e.activityTaskFailedEventAttributes?.failure).filter((f) => f);
    expect(failures.length).to.be.greaterThan(0);
    for (const failure of failures) {
      expect(failure!.message).to.equal('Encoded failure');
      expect(failure!.stackTrace ?? '').to.equal('');
      const [attributes] = await new EncryptionCodec(new CipherRing(testConfig().payloadKeys)).decode([failure!.encodedAttributes!]);
      expect(JSON.parse(Buffer.from(attributes.data!).toString()).message).to.be.a('string').and.not.equal('Encoded failure');
    }
  });

  it('a client without the codec cannot read a query result; the service\'s client can', async () => {
    const { client, token } = await startOperationsTest();
    const res = await createDirect(client, token);
    await untilStatus(client, token, res.body.id, 'CONTRACT_SENT');
    const id = `operation-${res.body.id}`;
    expect((await (await temporal()).workflow.getHandle(id).query<{ operationId: string }>('state')).operationId).to.equal(res.body.id);
    let refused: unknown;
    await raw.workflow.getHandle(id).query('state').catch((err) => { refused = err; });
    expect(String(refused)).to.match(/encoding/i);
  });

  it('after rotation the new key seals and the old key still opens what it sealed', async () => {
    const k1 = newCipherKeyEntry('k1');
    const old = parseCipherKeys(k1);
    const rotated = parseCipherKeys(`${newCipherKeyEntry('k2')},${k1}`);
    const before = new EncryptionCodec(new CipherRing(old));
    const after = new EncryptionCodec(new CipherRing(rotated));
    const original: Payload = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"email":"a@b.example"}') };
    const [sealedByOld] = await before.encode([original]);
    const [sealedByNew] = await after.encode([original]);
    expect(Buffer.from(sealedByOld.metadata!['encryption-key-id']!).toString()).to.equal('k1');
    expect(Buffer.from(sealedByNew.metadata!['encryption-key-id']!).toString()).to.equal('k2');
    for (const sealed of [sealedByOld, sealedByNew]) expect(text(await after.decode([sealed]))).to.equal('{"email":"a@b.example"}');
    // A ring that no longer lists k2 cannot open what k2 sealed: the key id names the key, and the key is needed.
    await before.decode([sealedByNew]).then(() => expect.fail('decoded without the key'), (err) => expect(String(err)).to.match(/unknown key id "k2"/));
  });
});
