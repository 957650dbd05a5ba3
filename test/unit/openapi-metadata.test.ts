import { expect } from 'chai';
import { buildDocument } from '../../api/document/document';
import { metadataOf } from '../support/validator-app';

describe('the validator route metadata taken from the resolved route', () => {
  it('is what the validator own lookup finds, for every documented operation, odd parameters and HEAD included', async () => {
    const document = buildDocument('http://localhost:8000', 'dev') as { paths: Record<string, Record<string, unknown>> };
    const requests: { method: string; path: string }[] = [];
    for (const [template, item] of Object.entries(document.paths)) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
        if (!item[method]) continue;
        for (const value of ['0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5', 'a%20b', '%E0%A4%A', 'direct']) {
          requests.push({ method: method.toUpperCase(), path: template.replace(/\{\w+\}/g, value) });
        }
        requests.push({ method: method.toUpperCase(), path: `${template.replace(/\{\w+\}/g, 'x')}/` });
        if (method === 'get') requests.push({ method: 'HEAD', path: template.replace(/\{\w+\}/g, 'x') });
      }
    }
    expect(requests.length).to.be.greaterThan(200);
    const direct = await metadataOf('direct', requests);
    const validator = await metadataOf('validator', requests);
    requests.forEach((request, i) => expect(direct[i], `${request.method} ${request.path}`).to.deep.equal(validator[i]));
    // The comparison covers requests the metadata was set for, not only refusals.
    expect(direct.filter((seen) => seen.status === 200 && (seen.body as { openapi?: unknown } | null)?.openapi).length).to.be.greaterThan(100);
  });
});
