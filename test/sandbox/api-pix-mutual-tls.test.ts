import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiPixClient } from '../../providers/api-pix-client';
import { PixCollectionError } from '../../providers/provider-errors';
import { loadConfig, SANDBOX_COLLECTION_CLIENT } from '../../platform/config/config';
import { startSandbox, RunningSandbox } from '../../sandbox/server';
import { minimalEnv } from '../support/config';
import { MutualTlsCa, mutualTlsCa, MutualTlsFront, mutualTlsFront } from '../support/mutual-tls';

/**
 * Issue #31: API Pix requires mutual TLS of a PSP's clients. The sandbox PSP behind an HTTPS
 * front that demands a client certificate of its CA stands for a real PSP; the client is built
 * from the configuration as the api and the worker build it.
 */
describe('the collection PSP over mutual TLS', () => {
  let sandbox: RunningSandbox;
  let front: MutualTlsFront;
  let ca: MutualTlsCa;
  let stranger: MutualTlsCa;

  before(async () => {
    sandbox = await startSandbox({ port: 0, logLevel: 'error', callbackSecrets: { esign: 'esign-secret-for-tests-only', pix: 'pix-secret-for-tests-only' }, collection: { ...SANDBOX_COLLECTION_CLIENT, webhookSecret: null } });
    [ca, stranger] = await Promise.all([mutualTlsCa('PSP'), mutualTlsCa('Stranger')]);
    front = await mutualTlsFront(sandbox.apiPixUrl.replace(/\/v2$/, ''), ca);
  });

  after(async () => {
    await front.close();
    await sandbox.close();
  });

  const clientFrom = (tls: Record<string, string>) => {
    const { collection, providers } = loadConfig(minimalEnv({
      PIX_COLLECTION_URL: `${front.url}/v2`, PIX_COLLECTION_TOKEN_URL: `${front.url}/oauth/token`, ...tls,
    }));
    return new ApiPixClient({ ...collection, timeoutMs: providers.timeoutMs });
  };
  const charge = (txid: string) => ({
    txid, dueDate: '2030-01-15', validAfterDueDays: 3, debtor: { document: '11222333000181', name: 'Pagador Ltda' }, amount: '300.00',
    finePct: '2.00', interestMonthlyPct: '1.00', pixKey: 'cobranca@example.com',
  });
  const refusal = async (call: Promise<unknown>) => {
    try {
      await call;
    } catch (err) {
      return err as PixCollectionError;
    }
    throw new Error('the PSP answered a client it should have refused');
  };

  it('gets a token and calls the API with the configured client certificate, key and CA', async () => {
    const psp = clientFrom({ PIX_COLLECTION_TLS_CERT: ca.client.certPem, PIX_COLLECTION_TLS_KEY: ca.client.keyPem, PIX_COLLECTION_TLS_CA: ca.caPem });
    const txid = randomUUID().replace(/-/g, '');
    expect(await psp.putCharge(charge(txid))).to.include({ txid, status: 'ATIVA', amount: '300.00' });
    expect(await psp.getCharge(txid)).to.include({ txid, status: 'ATIVA' });
  });

  // TLS 1.3: the PSP closes the connection after the handshake, so the client can only say so, with the hint.
  const CLOSED = /^pix_collection_unavailable: token endpoint connection closed without an answer \(UND_ERR_SOCKET\): if the provider requires mutual TLS, check the client certificate and key configured for it$/;

  it('fails with a clear error, pointing at the client certificate, with one the PSP\'s CA did not issue', async () => {
    const psp = clientFrom({ PIX_COLLECTION_TLS_CERT: stranger.client.certPem, PIX_COLLECTION_TLS_KEY: stranger.client.keyPem, PIX_COLLECTION_TLS_CA: ca.caPem });
    const err = await refusal(psp.putCharge(charge(randomUUID().replace(/-/g, ''))));
    expect(err).to.be.instanceOf(PixCollectionError);
    expect(err.message, err.message).to.match(CLOSED);
  });

  it('fails with the same clear error without a client certificate (the PSP\'s CA trusted)', async () => {
    const err = await refusal(clientFrom({ PIX_COLLECTION_TLS_CA: ca.caPem }).getCharge(randomUUID().replace(/-/g, '')));
    expect(err).to.be.instanceOf(PixCollectionError);
    expect(err.message, err.message).to.match(CLOSED);
  });

  it('fails naming the TLS handshake when the PSP\'s server certificate does not chain to the configured CA', async () => {
    const err = await refusal(clientFrom({ PIX_COLLECTION_TLS_CERT: ca.client.certPem, PIX_COLLECTION_TLS_KEY: ca.client.keyPem, PIX_COLLECTION_TLS_CA: stranger.caPem }).getCharge(randomUUID().replace(/-/g, '')));
    expect(err.message, err.message).to.match(/^pix_collection_unavailable: token endpoint TLS handshake failed \(\w+\): check the client certificate, key and CA configured for this provider$/);
  });
});

describe('the collection PSP\'s TLS settings', () => {
  let ca: MutualTlsCa;
  let other: MutualTlsCa;
  let dir: string;

  before(async () => {
    [ca, other] = await Promise.all([mutualTlsCa('Settings'), mutualTlsCa('Other')]);
    dir = mkdtempSync(path.join(tmpdir(), 'psp-tls-'));
  });

  after(() => rmSync(dir, { recursive: true, force: true }));

  const load = (tls: Record<string, string>) => loadConfig(minimalEnv(tls)).collection.tls;

  it('reads each PEM inline or from a file, once at start-up; none set is no TLS setting', () => {
    const keyFile = path.join(dir, 'client.key');
    writeFileSync(keyFile, ca.client.keyPem, { mode: 0o600 });
    expect(load({ PIX_COLLECTION_TLS_CERT: ca.client.certPem, PIX_COLLECTION_TLS_KEY: keyFile })).to.deep.equal({ certPem: ca.client.certPem, keyPem: ca.client.keyPem, caPem: null });
    expect(load({})).to.equal(null);
  });

  it('refuses a certificate without its key, a key of another certificate, a file it cannot read, a CA that is no certificate; the key never in the message', () => {
    const refusalOf = (tls: Record<string, string>) => {
      try {
        load(tls);
      } catch (err) {
        expect((err as Error).message).to.not.include('PRIVATE KEY');
        return (err as Error).message;
      }
      throw new Error('loaded');
    };
    expect(refusalOf({ PIX_COLLECTION_TLS_CERT: ca.client.certPem })).to.equal('PIX_COLLECTION_TLS_CERT and PIX_COLLECTION_TLS_KEY are set together (the client certificate and its private key)');
    expect(refusalOf({ PIX_COLLECTION_TLS_CERT: ca.client.certPem, PIX_COLLECTION_TLS_KEY: other.client.keyPem })).to.equal('PIX_COLLECTION_TLS_KEY is not the private key of PIX_COLLECTION_TLS_CERT');
    expect(refusalOf({ PIX_COLLECTION_TLS_CERT: ca.client.certPem, PIX_COLLECTION_TLS_KEY: path.join(dir, 'absent.key') })).to.equal('PIX_COLLECTION_TLS_KEY: neither a PEM nor a readable file (ENOENT)');
    expect(refusalOf({ PIX_COLLECTION_TLS_CA: ca.client.keyPem })).to.equal('PIX_COLLECTION_TLS_CA is not a PEM CA certificate');
  });
});
