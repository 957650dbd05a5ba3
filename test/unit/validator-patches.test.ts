import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import * as querystring from 'node:querystring';
import url from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { metadataOf, MutatedOperation, OpenApiDocument, parameterMutators, validatorsOf } from '../support/validator-app';
import { buildDocument } from '../../api/document/document';
import { deepObjectsWithoutThrow, parametersDecidedOnce, requestParameterMutator } from '../../api/middleware/validator-patches';
import { openapiValidation, validatorOptions } from '../../api/middleware/openapi-validation';

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

  describe('parameters decided once per route', () => {
    type Modify = (this: object, req: object) => void;
    /** The document as served (query values may not hold reserved characters), and as the validator's copy has it (they may). */
    const served = buildDocument('http://localhost:8000', 'dev') as unknown as Record<string, unknown>;
    const tolerant = structuredClone(served);
    for (const item of Object.values(tolerant.paths as Record<string, Record<string, { parameters?: { in?: string; allowReserved?: boolean }[] }>>)) {
      for (const operation of Object.values(item)) for (const parameter of operation.parameters ?? []) if (parameter.in === 'query') parameter.allowReserved = true;
    }
    for (const parameter of Object.values((tolerant.components as { parameters: Record<string, { in: string; allowReserved?: boolean }> }).parameters)) if (parameter.in === 'query') parameter.allowReserved = true;
    /** The mutator's branches our document has no parameter for: delimited and form arrays, form objects exploded or not, JSON content, a header array. */
    const others = structuredClone(served);
    const array = { type: 'array', items: { type: 'string' } };
    (others.paths as Record<string, unknown>)['/x/{id}'] = {
      get: {
        operationId: 'others', responses: { 200: { description: 'ok' } },
        parameters: [
          { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'p', in: 'query', style: 'pipeDelimited', explode: false, schema: array },
          { name: 's', in: 'query', style: 'spaceDelimited', explode: false, schema: array },
          { name: 'f', in: 'query', explode: false, schema: array },
          { name: 'many', in: 'query', schema: array },
          { name: 'csv', in: 'query', style: 'form', explode: false, schema: { type: 'object', properties: { a: { type: 'string' } } } },
          { name: 'filter', in: 'query', style: 'form', explode: true, schema: { type: 'object', properties: { color: { type: 'string' }, size: array } } },
          { name: 'j', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
          { name: 'dd', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { gte: { type: 'string', default: 'x' } } } },
          { name: 'X-List', in: 'header', style: 'simple', schema: array },
        ],
      },
    };
    const QUERIES = ['', 'limit=100', 'limit=abc&offset=-1', 'type=title.overdue,payable.paid&type=operation.settled', 'created[gte]=2026-01-01T00:00:00Z&created[lt]=2026-02-01T00:00:00%2B01:00',
      'created={"gte":"2026-01-01T00:00:00Z"}', 'created=', 'object_id=a:b', 'starting_after=x/y&ending_before=%3A', 'delivery_success=false&lifecycle_status=PAID,SETTLED', 'a+b=c d&limit=',
      'p=a|b|c&s=a%20b&f=a,b&many=1&many=2', 'p=a%7Cb', 'csv=a,1', 'csv={"a":"1"}', 'csv=a,1,2', 'color=red&size=s&size=m', 'filter=x&color=red', 'j={"k":1}', 'j=notjson', 'dd[gte]=y', 'dd='];

    /** The request the mutator sees: Express 5's simple query parser, the route's metadata, a header. */
    const requestOf = (operation: MutatedOperation, query: string) => ({
      originalUrl: `${operation.path}${query ? `?${query}` : ''}`, query: { ...querystring.parse(query) }, openapi: { schema: operation.operation },
      headers: { 'x-list': 'a,b' }, params: { id: 'i' },
    });
    /** What a call left on the request, or what it threw. */
    function outcome(modify: Modify, operation: MutatedOperation, query: string): unknown {
      const req = requestOf(operation, query);
      try {
        modify.call(operation.mutator, req);
        return { query: req.query, headers: req.headers, params: req.params };
      } catch (error) {
        const { name, status, message, path } = error as { name: string; status?: number; message: string; path?: string };
        return { thrown: { name, status, message, path } };
      }
    }

    it('leaves every request of every route as the validator\'s own modifyRequest does, or throws what it throws', () => {
      parametersDecidedOnce();
      const patched = requestParameterMutator.prototype.modifyRequest as Modify & { original?: Modify };
      expect(patched.original).to.be.a('function');
      const seen = { thrown: 0, changed: 0 };
      for (const document of [served, tolerant, others]) {
        for (const operation of parameterMutators(structuredClone(document))) {
          for (const query of QUERIES) {
            const theirs = outcome(patched.original!, operation, query);
            // Twice: the second call takes the steps decided at the first.
            for (let i = 0; i < 2; i++) expect(outcome(patched, operation, query), `${operation.method} ${operation.path}?${query}`).to.deep.equal(theirs);
            if ('thrown' in (theirs as object)) seen.thrown += 1;
            else if (JSON.stringify((theirs as { query: unknown }).query) !== JSON.stringify(requestOf(operation, query).query)) seen.changed += 1;
          }
        }
      }
      // Refusals (the served document refuses reserved characters) and rewritten queries were both compared.
      expect(seen.thrown).to.be.greaterThan(0);
      expect(seen.changed).to.be.greaterThan(0);
    });

    it('works each parameter out once per route, and parses the URL only for a parameter that reads it', () => {
      parametersDecidedOnce();
      const patched = requestParameterMutator.prototype.modifyRequest as Modify & { original?: Modify };
      const util = createRequire(require.resolve('express-openapi-validator'))('./middlewares/parsers/util') as { dereferenceParameter: (...args: unknown[]) => unknown };
      // The module object itself, whose `parse` both the validator and the patch read at each call.
      const urlModule = url as unknown as { parse: (...args: unknown[]) => unknown };
      const [dereference, parse] = [util.dereferenceParameter, urlModule.parse];
      const calls = { dereference: 0, parse: 0 };
      util.dereferenceParameter = (...args) => { calls.dereference += 1; return dereference(...args); };
      urlModule.parse = (...args) => { calls.parse += 1; return parse(...args); };
      const count = (modify: Modify, operation: MutatedOperation, requests: number) => {
        [calls.dereference, calls.parse] = [0, 0];
        for (let i = 0; i < requests; i++) modify.call(operation.mutator, requestOf(operation, 'limit=100&delivery_success=false'));
        return { ...calls };
      };
      try {
        const events = (document: Record<string, unknown>) => parameterMutators(structuredClone(document)).find((o) => o.path === '/v1/events' && o.method === 'get')!;
        const parameters = events(tolerant).operation.parameters!.length;
        expect(count(patched.original!, events(tolerant), 3)).to.deep.equal({ dereference: 3 * parameters, parse: 3 });
        expect(count(patched, events(tolerant), 3)).to.deep.equal({ dereference: parameters, parse: 0 });
        expect(count(patched, events(served), 3)).to.deep.equal({ dereference: parameters, parse: 3 });
      } finally {
        util.dereferenceParameter = dereference;
        urlModule.parse = parse;
      }
    });
  });
  describe('schemas compiled once per ajv', () => {
    type Schema = Record<string, unknown>;
    type Validate = ((data: unknown) => boolean) & { errors?: { instancePath: string; keyword: string; params: unknown; message?: string }[] | null };
    type UseAjvCache = ((ajv: object, schema: object, key: string) => Validate) & { original?: UseAjvCache };
    const util = createRequire(require.resolve('express-openapi-validator'))('./middlewares/util') as { useAjvCache: UseAjvCache; ContentType: { fromString(type: string): unknown } };
    const JSON_TYPE = 'application/json';

    /** A value of `schema` as far as a short walk gets (the first of each choice, every property): valid for many schemas, near it for the rest. */
    function sampleOf(schema: unknown, document: OpenApiDocument, depth = 0): unknown {
      let s = schema as Schema | undefined;
      while (s && typeof s.$ref === 'string') s = (s.$ref as string).slice(2).split('/').reduce<unknown>((at, key) => (at as Schema)[key], document) as Schema;
      if (!s || depth > 8) return null;
      if ('const' in s) return s.const;
      if (Array.isArray(s.enum)) return s.enum[0];
      const choice = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
      if (choice) return sampleOf(choice[0], document, depth + 1);
      if (Array.isArray(s.allOf)) return Object.assign({}, ...s.allOf.map((part) => sampleOf(part, document, depth + 1)));
      const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
      if (type === 'object' || s.properties) return Object.fromEntries(Object.entries((s.properties ?? {}) as Record<string, unknown>).map(([key, inner]) => [key, sampleOf(inner, document, depth + 1)]));
      if (type === 'array') return [sampleOf(s.items, document, depth + 1)];
      if (type === 'integer' || type === 'number') return typeof s.minimum === 'number' ? s.minimum : 1;
      if (type === 'boolean') return true;
      if (type === 'string') return ({ date: '2026-01-02', 'date-time': '2026-01-02T03:04:05Z', uuid: '0195f1c2-7a3b-7c4d-8e5f-a0b1c2d3e4f5', uri: 'https://example.com/x', email: 'a@example.com' } as Record<string, string>)[String(s.format)] ?? 'x';
      return null;
    }

    /** Values around a sample: itself, other types, each of its properties left out, set to null, to an object, and one property too many, one level down too. */
    function around(sample: unknown): unknown[] {
      const values: unknown[] = [sample, null, {}, [], 'x', 0, true];
      const varied = (value: unknown, depth: number): unknown[] => {
        if (value === null || typeof value !== 'object' || Array.isArray(value) || depth > 1) return [];
        const object = value as Schema;
        return Object.keys(object).flatMap((key) => {
          const { [key]: inner, ...rest } = object;
          return [rest, { ...object, [key]: null }, { ...object, [key]: {} }, ...varied(inner, depth + 1).map((v) => ({ ...object, [key]: v }))];
        }).concat([{ ...object, unexpected_property: 1 }]);
      };
      return values.concat(varied(sample, 0));
    }

    /** What a validator says of a copy of `data` (ajv may add defaults and coerce), and the copy after. */
    function verdict(validate: Validate, data: unknown): unknown {
      const copy = structuredClone(data);
      const valid = validate(copy);
      return { valid, data: copy, errors: (validate.errors ?? []).map(({ instancePath, keyword, params, message }) => ({ instancePath, keyword, params, message })) };
    }

    /** The validators each operation's requests and responses get, in the order compiled, with the validator's own useAjvCache or the patch. */
    function compiled(build: () => void, useAjvCache: UseAjvCache): Validate[] {
      const validators: Validate[] = [];
      const current = util.useAjvCache;
      util.useAjvCache = (ajv, schema, key) => { const validate = useAjvCache(ajv, schema, key); validators.push(validate); return validate; };
      try {
        build();
      } finally {
        util.useAjvCache = current;
      }
      return validators;
    }

    it('validates every request body, parameter set and response of the document as the validator\'s own compilation does, with the same errors', async () => {
      const served = buildDocument('http://localhost:8000', 'dev') as unknown as Record<string, unknown>;
      // The api's own building of its validation installs the patch.
      openapiValidation(served, true);
      const patched = util.useAjvCache;
      expect(patched.original).to.be.a('function');
      const { requestDocument, responseDocument, request, response } = await validatorsOf(validatorOptions(served, true));
      const operations = Object.entries(responseDocument.paths).flatMap(([path, item]) => Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)).map((method) => ({ path, method })));
      const seen = { valid: 0, invalid: 0 };
      const compare = (theirs: Validate[], ours: Validate[], corpus: unknown[], label: string) => {
        expect(ours.length, label).to.equal(theirs.length);
        theirs.forEach((validate, at) => {
          for (const data of corpus) {
            const expected = verdict(validate, data) as { valid: boolean };
            const actual = verdict(ours[at], data);
            // chai only for a difference, to print it: its deep comparison of every verdict took most of the test's time.
            if (!isDeepStrictEqual(actual, expected)) expect(actual, `${label} ${JSON.stringify(data)}`).to.deep.equal(expected);
            seen[expected.valid ? 'valid' : 'invalid'] += 1;
          }
        });
      };
      const [theirRequests, ourRequests] = [request(), request()];
      for (const { path, method } of operations) {
        const operation = requestDocument.paths[path][method] as { requestBody?: { content?: Record<string, { schema?: unknown }> }; parameters?: { name: string; in: string; schema?: unknown }[] };
        const build = (validator: Record<string, unknown>) => () => (validator.buildMiddleware as (...args: unknown[]) => unknown).call(validator, path, operation, util.ContentType.fromString(JSON_TYPE), `${method}-${path}`);
        const theirs = compiled(build(theirRequests), patched.original!);
        const ours = compiled(build(ourRequests), patched);
        const body = sampleOf(operation.requestBody?.content?.[JSON_TYPE]?.schema, requestDocument);
        const parameters = (value: (schema: unknown) => unknown) => Object.fromEntries(['query', 'headers', 'params', 'cookies'].map((place) => [place, Object.fromEntries((operation.parameters ?? [])
          .filter((p) => p.in === { query: 'query', headers: 'header', params: 'path', cookies: 'cookie' }[place]).map((p) => [p.name, value(p.schema)]))]));
        const corpus = [...around(body).map((b) => ({ ...parameters(() => undefined), body: b })), parameters(() => 'x'), parameters((schema) => sampleOf(schema, requestDocument)), parameters((schema) => String(sampleOf(schema, requestDocument)))];
        compare(theirs, ours, corpus, `request ${method} ${path}`);
      }
      const [theirResponses, ourResponses] = [response(), response()];
      // Each distinct response once: most statuses of most routes share the error envelope, and the
      // validator's own compilation of each (what the patch saves) would take most of the test's time.
      const distinct = new Set<string>();
      for (const { path, method } of operations) {
        const all = responseDocument.paths[path][method].responses as Record<string, { content?: Record<string, { schema?: unknown }> }>;
        const responses = Object.fromEntries(Object.entries(all).filter(([, r]) => {
          const key = JSON.stringify(r.content ?? null);
          return !distinct.has(key) && distinct.add(key);
        }));
        type ByStatus = Record<string, Record<string, Validate>>;
        const build = (validator: Record<string, unknown>, useAjvCache: UseAjvCache) => {
          let built: ByStatus = {};
          compiled(() => { built = (validator.buildValidators as (...args: unknown[]) => ByStatus).call(validator, responses, `${method}-${path}`); }, useAjvCache);
          return built;
        };
        const [theirs, ours] = [build(theirResponses, patched.original!), build(ourResponses, patched)];
        expect(Object.keys(ours)).to.deep.equal(Object.keys(theirs));
        for (const [status, byType] of Object.entries(theirs)) {
          for (const [type, validate] of Object.entries(byType)) {
            const values = around(sampleOf(responses[status].content![type].schema, responseDocument)).map((value) => ({ response: value }));
            compare([validate], [ours[status][type]], values, `response ${method} ${path} ${status} ${type}`);
          }
        }
      }
      // Both verdicts were met often: a corpus of only refusals (or only passes) would compare little.
      expect(seen.valid).to.be.greaterThan(100);
      expect(seen.invalid).to.be.greaterThan(1000);
      // The document is one schema of each ajv, added once however many roots refer into it.
      const ajv = (ourResponses as { ajvBody: { getSchema(key: string): unknown } }).ajvBody;
      expect(ajv.getSchema('urn:express-openapi-validator:document:0')).to.be.a('function');
      expect(ajv.getSchema('urn:express-openapi-validator:document:1')).to.equal(undefined);
    });
  });
});
