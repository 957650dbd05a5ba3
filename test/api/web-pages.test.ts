import { expect } from 'chai';
import { sharedApi } from '../support/stack';

describe('pages served beside the API', () => {
  let baseUrl: string;
  before(async () => { baseUrl = (await sharedApi()).url; });

  const get = (path: string) => fetch(`${baseUrl}${path}`, { redirect: 'manual' });

  it('serves the console and the docs with a CSP that allows only this origin', async () => {
    for (const path of ['/backoffice/', '/docs/', '/docs/guides/idempotency.html', '/docs/guides/collecting-from-payers.html']) {
      const res = await get(path);
      expect(res.status, path).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/html/);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).to.include("default-src 'self'").and.include("script-src 'self'").and.include("style-src 'self'").and.include("frame-ancestors 'none'");
      expect(csp, path).not.to.include('unsafe');
      expect(res.headers.get('x-request-id'), 'the pipeline\'s headers still apply').to.be.a('string');
    }
  });

  it('redirects the bare paths to the folder, so relative module imports resolve', async () => {
    for (const path of ['/backoffice', '/docs']) {
      const res = await get(path);
      expect(res.status, path).to.equal(301);
      expect(res.headers.get('location')).to.equal(`${path}/`);
    }
  });

  it('serves Swagger UI from the npm package, and nothing else of it', async () => {
    const bundle = await get('/docs/vendor/swagger-ui-bundle.js');
    expect(bundle.status).to.equal(200);
    expect(await bundle.text()).to.include('SwaggerUIBundle');
    expect((await get('/docs/vendor/package.json')).status).to.equal(404);
  });

  it('answers an unknown page with the API\'s 404 envelope', async () => {
    const res = await get('/backoffice/missing.js');
    expect(res.status).to.equal(404);
    expect(await res.json()).to.deep.equal({ detail: 'not_found' });
  });
});
