import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { metadataOf } from '../support/validator-app';
import { deepObjectsWithoutThrow, requestParameterMutator } from '../../api/middleware/validator-patches';

type Compile = ((path: string, options?: object) => unknown) & { memoised?: true };

/** The path-to-regexp module instance express-openapi-validator itself requires. */
const validatorPathToRegexp = createRequire(require.resolve('express-openapi-validator'))('path-to-regexp') as { pathToRegexp: Compile };

/** Counts the calls the validator makes to path-to-regexp while the requests run, the patched export restored after. */
async function compilationsDuring(lookup: 'direct' | 'validator', paths: string[], method = 'GET'): Promise<{ calls: number; statuses: number[] }> {
  let calls = 0;
  let patched: Compile | undefined;
  const seen = await metadataOf(lookup, paths.map((path) => ({ method, path })), () => {
    patched = validatorPathToRegexp.pathToRegexp;
    validatorPathToRegexp.pathToRegexp = Object.assign((path: string, options?: object) => { calls += 1; return patched!(path, options); }, { memoised: true as const });
  }).finally(() => { if (patched) validatorPathToRegexp.pathToRegexp = patched; });
  return { calls, statuses: seen.map((s) => s.status) };
}

const READS = ['/v1/operations/0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5', '/v1/assignors', '/v1/operations/0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5/contract/signers'];

describe('the patches of express-openapi-validator internals (api/middleware/validator-patches.ts)', () => {
  // test/unit/runtime.test.ts checks that package.json pins an exact version.
  it('are written for the version package.json pins, which is the one installed', () => {
    const pinned = (JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> }).dependencies['express-openapi-validator'];
    const installed = (JSON.parse(readFileSync(require.resolve('express-openapi-validator/package.json'), 'utf8')) as { version: string }).version;
    expect(installed).to.equal(pinned);
  });

  it('memoised path compilation: the validator compiles through the memo, which answers one compilation per path and options', async () => {
    const { calls, statuses } = await compilationsDuring('validator', READS);
    expect(statuses).to.deep.equal([200, 200, 200]);
    // The validator reads the export at each call, so the memo replaced there is the one it uses.
    expect(calls).to.be.greaterThan(READS.length);
    const compile = validatorPathToRegexp.pathToRegexp;
    expect(compile.memoised).to.equal(true);
    expect(compile('/v1/assignors/:id', { sensitive: false, strict: false })).to.equal(compile('/v1/assignors/:id', { sensitive: false, strict: false }));
  });

  it('direct metadata: a request whose route resolveRoute found takes none of the validator lookup', async () => {
    const direct = await compilationsDuring('direct', READS);
    expect(direct.statuses).to.deep.equal([200, 200, 200]);
    expect(direct.calls).to.equal(0);
  });

  it('direct metadata: a request the resolved route cannot serve (HEAD, an undecodable parameter) takes the validator lookup', async () => {
    const head = await compilationsDuring('direct', ['/v1/assignors'], 'HEAD');
    expect(head.statuses).to.deep.equal([200]);
    expect(head.calls).to.be.greaterThan(0);
    const undecodable = await compilationsDuring('direct', ['/v1/titles/%E0%A4%A']);
    expect(undecodable.calls).to.be.greaterThan(0);
  });

  it('deepObject without a throw: leaves the query as the validator\'s own handling does, without parsing an object or a missing value', () => {
    deepObjectsWithoutThrow();
    const patched = requestParameterMutator.prototype.handleDeepObject;
    const original = patched.original!;
    expect(original).to.be.a('function');
    const schemas: { type: string; properties: Record<string, { type: string; default?: string }> }[] = [{ type: 'object', properties: { gte: { type: 'string' }, lt: { type: 'string' } } }, { type: 'object', properties: { gte: { type: 'string', default: 'x' } } }];
    const values: unknown[] = [undefined, { gte: '2026-01-01T00:00:00Z' }, { toString: 'x' }, '{"gte":"2026-01-01T00:00:00Z"}', '', ['1'], null];
    const parse = JSON.parse;
    for (const schema of schemas) {
      for (const value of values) {
        const query = () => (value === undefined ? {} : { created: structuredClone(value) });
        const theirs = { query: query() };
        original.call(new (requestParameterMutator as unknown as new () => object)(), theirs, '', 'created', schema);
        let parsed = 0;
        JSON.parse = (...args: Parameters<typeof JSON.parse>) => { parsed += 1; return parse(...args); };
        const ours = { query: query() };
        try {
          patched.call(new (requestParameterMutator as unknown as new () => object)(), ours, '', 'created', schema);
        } finally {
          JSON.parse = parse;
        }
        expect(ours, JSON.stringify({ schema, value })).to.deep.equal(theirs);
        if ((value === undefined && !schema.properties.gte.default) || (typeof value === 'object' && value !== null && !Array.isArray(value))) expect(parsed).to.equal(0);
      }
    }
  });
});
