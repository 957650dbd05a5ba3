import { expect } from 'chai';
import { buildDocument } from '../../api/document/document';
import { RouteTable } from '../../api/openapi/route-table';

type Paths = Record<string, Record<string, unknown>>;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** The rule in words: of the templates the path fits, segment by segment, the one with the most literal segments (the first of equals). */
function expected(paths: Paths, method: string, path: string): unknown {
  // One trailing slash is allowed; otherwise every segment between slashes is non-empty.
  const parts = path.replace(/\/$/, '').slice(1).split('/');
  if (!path.startsWith('/') || parts.some((part) => part === '')) return null;
  let best: { template: string; literal: number } | null = null;
  for (const template of Object.keys(paths)) {
    const segments = template.split('/').filter(Boolean);
    const fits = segments.length === parts.length && segments.every((s, i) => s.startsWith('{') || s === parts[i]);
    const literal = segments.filter((s) => !s.startsWith('{')).length;
    if (fits && (!best || literal > best.literal)) best = { template, literal };
  }
  if (!best) return null;
  const item = paths[best.template];
  if (item[method.toLowerCase()]) return { template: best.template, operationId: (item[method.toLowerCase()] as { operationId: string }).operationId };
  return { allowed: METHODS.filter((m) => item[m.toLowerCase()]) };
}

describe('the route table', () => {
  it('finds the most literal documented template for every path, with or without a trailing slash, and the methods it allows', () => {
    const paths = (buildDocument('http://localhost:8000', 'dev') as { paths: Paths }).paths;
    const table = new RouteTable({ paths } as never);
    const requests: string[] = [];
    for (const template of Object.keys(paths)) {
      // `direct` and `simulate-anticipation` are literal segments of other templates: those must win.
      for (const value of ['0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5', 'direct', 'simulate-anticipation']) {
        const path = template.replace(/\{\w+\}/g, value);
        requests.push(path, `${path}/`, `${path}//`, path.toUpperCase(), `${path}/extra`);
      }
    }
    requests.push('/', '/v1', '/v1/', '/nowhere');
    let found = 0;
    for (const path of requests) {
      for (const method of METHODS) {
        const match = table.match(method, path);
        const seen = match && ('allowed' in match ? { allowed: match.allowed } : { template: match.pathTemplate, operationId: match.operationId });
        expect(seen, `${method} ${path}`).to.deep.equal(expected(paths, method, path));
        if (seen && 'operationId' in seen) found += 1;
      }
    }
    expect(found).to.be.greaterThan(100);
  });
});
