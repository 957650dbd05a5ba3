import { expect } from 'chai';
import { request } from 'node:http';
import { anotherApi, testConfig } from '../support/stack';
import { ApiClient } from '../support/http';
import { buildIntegrator, buildUser, loginAs } from '../support/factories';
import { BACKOFFICE_SCOPES } from '../../domain/principal';
import { EncryptionCodec } from '../../platform/crypto/payload-codec';
import { CipherRing } from '../../platform/crypto/cipher-ring';

const WEB = 'http://temporal-web.test:8233';
const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Issue #13: operators decode histories in Temporal Web through the codec endpoint; nobody else does. */
describe('codec endpoint (Temporal Web remote codec protocol)', () => {
  let client: ApiClient;
  let operator: string;
  before(async () => {
    client = new ApiClient((await anotherApi({ CODEC_CORS_ORIGINS: WEB })).url);
    operator = await loginAs(client, await buildUser());
  });

  const call = (path: string, body: unknown, token: string, origin = WEB) =>
    client.post(`/v1/backoffice/codec${path}`, body, { token, headers: { Origin: origin, 'X-Namespace': testConfig().temporal.namespace } });

  it('decodes what the worker sealed and encodes for Temporal Web, with CORS for its origin', async () => {
    const original = { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('{"email":"operator-view@example.com"}') };
    const [sealed] = await new EncryptionCodec(new CipherRing(testConfig().payloadKeys)).encode([original]);
    const wire = { metadata: { encoding: b64('binary/encrypted'), 'encryption-key-id': Buffer.from(sealed.metadata!['encryption-key-id']!).toString('base64') }, data: Buffer.from(sealed.data!).toString('base64') };
    const decoded = await call('/decode', { payloads: [wire] }, operator);
    expect(decoded.status, decoded.text).to.equal(200);
    expect(decoded.headers.get('access-control-allow-origin')).to.equal(WEB);
    expect(decoded.body.payloads).to.deep.equal([{ metadata: { encoding: b64('json/plain') }, data: b64('{"email":"operator-view@example.com"}') }]);

    const encoded = await call('/encode', decoded.body, operator);
    expect(encoded.status, encoded.text).to.equal(200);
    expect(Buffer.from(encoded.body.payloads[0].metadata.encoding, 'base64').toString()).to.equal('binary/encrypted');
    expect(encoded.body.payloads[0].data).not.to.include(b64('operator-view'));
    expect((await call('/decode', encoded.body, operator)).body).to.deep.equal(decoded.body);
  });

  it('answers Temporal Web\'s preflight from its origin and refuses any other origin in the envelope', async () => {
    const preflight = await client.request('OPTIONS', '/v1/backoffice/codec/decode', { headers: { Origin: WEB, 'Access-Control-Request-Method': 'POST' } });
    expect(preflight.status).to.equal(204);
    expect(preflight.headers.get('access-control-allow-origin')).to.equal(WEB);
    expect(preflight.headers.get('access-control-allow-headers')).to.match(/X-Namespace/);

    const foreignPreflight = await client.request('OPTIONS', '/v1/backoffice/codec/decode', { headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'POST' } });
    expect(foreignPreflight.status).to.equal(403);
    expect(foreignPreflight.headers.get('access-control-allow-origin')).to.equal(null);
    const foreign = await call('/decode', { payloads: [] }, operator, 'https://evil.example');
    expect(foreign.status).to.equal(403);
    expect(foreign.body.detail.code).to.equal('origin_not_allowed');
  });

  it('refuses a client token, a user without backoffice:operate, no token, and another namespace', async () => {
    const { token } = await buildIntegrator(client);
    expect((await call('/decode', { payloads: [] }, token)).body.detail).to.equal('invalid_token_type');
    const reader = await loginAs(client, await buildUser({ scopes: BACKOFFICE_SCOPES.filter((s) => s !== 'backoffice:operate') }));
    const refused = await call('/decode', { payloads: [] }, reader);
    expect(refused.status).to.equal(403);
    expect(refused.body.detail.code).to.equal('scope_insufficient');
    expect((await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { headers: { Origin: WEB } })).status).to.equal(401);
    const otherNamespace = await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { token: operator, headers: { Origin: WEB, 'X-Namespace': 'someone-else' } });
    expect(otherNamespace.body.detail.code).to.equal('namespace_not_served');
  });

  it('keeps the operator\'s token in an HttpOnly cookie that Temporal Web\'s credentialed calls present', async () => {
    const session = await client.post('/v1/backoffice/codec/session', {}, { token: operator, headers: { Origin: WEB } });
    expect(session.status, session.text).to.equal(204);
    const cookie = session.headers.get('set-cookie')!;
    expect(cookie).to.match(/^codec_session=[\w.-]+; Path=\/v1\/backoffice\/codec; Max-Age=\d+; HttpOnly; SameSite=Strict$/);
    const withCookie = await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { headers: { Origin: WEB, Cookie: cookie.split(';')[0] } });
    expect(withCookie.status, withCookie.text).to.equal(200);
    expect(withCookie.headers.get('access-control-allow-credentials')).to.equal('true');
    // From another origin the cookie opens nothing, and a client token cannot get a session.
    expect((await client.post('/v1/backoffice/codec/decode', { payloads: [] }, { headers: { Origin: 'https://evil.example', Cookie: cookie.split(';')[0] } })).status).to.equal(403);
    const { token } = await buildIntegrator(client);
    expect((await client.post('/v1/backoffice/codec/session', {}, { token })).status).to.equal(401);
  });

  it('takes a call as same-origin only from the api\'s own origin, never from what the Host header claims', async () => {
    /** A decode whose Host header the caller writes (fetch would not let it). */
    const decodeWithHost = (origin: string, host: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
      const target = new URL('/v1/backoffice/codec/decode', client.baseUrl);
      const sent = request(target, {
        method: 'POST',
        headers: { Host: host, Origin: origin, Authorization: `Bearer ${operator}`, 'Content-Type': 'application/json', 'X-Namespace': testConfig().temporal.namespace },
      }, (res) => {
        let text = '';
        res.on('data', (chunk) => { text += chunk; });
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      });
      sent.on('error', reject);
      sent.end(JSON.stringify({ payloads: [] }));
    });
    const forged = await decodeWithHost('http://evil.example', 'evil.example');
    expect(forged.status, forged.body).to.equal(403);
    expect(JSON.parse(forged.body).detail.code).to.equal('origin_not_allowed');
    const own = await decodeWithHost(client.baseUrl, new URL(client.baseUrl).host);
    expect(own.status, own.body).to.equal(200);
  });

  it('a payload the key ring cannot open is a 422, not a 500', async () => {
    const forged = { metadata: { encoding: b64('binary/encrypted'), 'encryption-key-id': b64(testConfig().payloadKeys[0].id) }, data: b64('x'.repeat(40)) };
    const res = await call('/decode', { payloads: [forged] }, operator);
    expect(res.status).to.equal(422);
    expect(res.body.detail.code).to.equal('payload_not_decodable');
  });
});
