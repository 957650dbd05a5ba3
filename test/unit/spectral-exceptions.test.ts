import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { buildDocument } from '../../api/document/document';
import { compareWithExceptions, readExceptions, writeExceptions } from '../../scripts/lib/spectral-exceptions.mjs';

const document = buildDocument('http://127.0.0.1:8000', 'sandbox');
const finding = (code: string, ...path: string[]) => ({ code, path });

/** Each Spectral warning kept (rulesets `oas` and OWASP) is listed with its reason, and lint fails on any other. */
describe('the Spectral exception list', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'spectral-'));
    file = path.join(dir, 'exceptions.txt');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const responseName = finding('owasp:api4:2023-string-limit', 'components', 'schemas', 'Title', 'properties', 'payer_name');
  const requestName = finding('owasp:api4:2023-string-restricted', 'components', 'schemas', 'ReceivableInput', 'properties', 'payer_name');

  it('places each finding under its reason and names a new one and a gone one', () => {
    expect(writeExceptions(file, document, [responseName, requestName])).to.deep.equal({ output: 1, 'free-text': 1 });
    const listed = readExceptions(file);
    expect([...listed.values()]).to.deep.equal(['output', 'free-text']);
    expect(compareWithExceptions([responseName, requestName], listed)).to.deep.equal({ unlisted: [], gone: [], unreviewed: [], kept: 2 });
    const unbounded = finding('owasp:api4:2023-string-limit', 'components', 'schemas', 'ReceivableInput', 'properties', 'payer_name');
    expect(compareWithExceptions([responseName, unbounded], listed)).to.deep.include({
      unlisted: ['owasp:api4:2023-string-limit #/components/schemas/ReceivableInput/properties/payer_name'],
      gone: ['owasp:api4:2023-string-restricted #/components/schemas/ReceivableInput/properties/payer_name'],
    });
  });

  it('keeps the staff roles named in userSession requirements, and no scope an OAuth2 scheme does not declare', () => {
    const role = finding('oas3-operation-security-defined', 'paths', '/v1/backoffice/approval-queue', 'get', 'security', '0', 'userSession', '0');
    const undeclared = finding('oas3-operation-security-defined', 'paths', '/v1/operations', 'get', 'security', '0', 'clientCredentials', '0');
    expect(writeExceptions(file, document, [role, undeclared])).to.deep.equal({ 'staff-roles': 1, UNREVIEWED: 1 });
    expect(compareWithExceptions([role, undeclared], readExceptions(file)).unreviewed).to.deep.equal([
      'oas3-operation-security-defined #/paths/~1v1~1operations/get/security/0/clientCredentials/0',
    ]);
  });

  it('gives no reason to a missing bound on a request string: it is UNREVIEWED, which lint refuses', () => {
    const unbounded = finding('owasp:api4:2023-string-limit', 'paths', '/v1/simulate', 'post', 'requestBody', 'content', 'application/json', 'schema', 'properties', 'policy_id');
    expect(writeExceptions(file, document, [unbounded])).to.deep.equal({ UNREVIEWED: 1 });
    expect(compareWithExceptions([unbounded], readExceptions(file)).unreviewed).to.have.length(1);
  });
});
