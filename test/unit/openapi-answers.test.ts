import { expect } from 'chai';
import { buildDocument } from '../../api/document/document';

type Json = Record<string, any>;
const document = buildDocument('http://127.0.0.1:8000', 'sandbox') as Json;
const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
  Object.entries(item as Json).filter(([, op]) => op.responses).map(([method, op]) => ({ path, method, op: op as Json })));
const resolve = (node: Json): Json => (node?.$ref ? node.$ref.slice(2).split('/').reduce((at: Json, key: string) => at[key], document) : node);

/** Every schema reachable from `node`, each `$ref` followed once. */
function schemasUnder(node: Json, seen = new Set<string>()): Json[] {
  if (!node || typeof node !== 'object') return [];
  if (node.$ref) {
    if (seen.has(node.$ref)) return [];
    seen.add(node.$ref);
    return schemasUnder(resolve(node), seen);
  }
  const children = Object.values(node).flatMap((value) => (Array.isArray(value) ? value : [value])).filter((value) => value && typeof value === 'object');
  return [node, ...children.flatMap((child) => schemasUnder(child as Json, seen))];
}

/** Issue #24: the document states every answer the pipeline gives, as validators other than ours read it. */
describe('the OpenAPI document states what the pipeline answers', () => {
  it('declares its JSON Schema dialect', () => {
    expect(document.jsonSchemaDialect).to.equal('https://spec.openapis.org/oas/3.1/dialect/base');
  });

  it('lists 503 on every operation that reaches Postgres (all but the exempt ones)', () => {
    const missing = operations.filter(({ op }) => op['x-rate-limit'] !== 'exempt' && !op.responses['503']).map(({ method, path }) => `${method} ${path}`);
    expect(missing).to.deep.equal([]);
    expect(operations.filter(({ op }) => op['x-rate-limit'] !== 'exempt').length).to.be.greaterThan(50);
  });

  it('declares the platform headers on every answer, the rate-limit ones where limited, Retry-After on 429, Idempotency-Replayed on replayable writes', () => {
    for (const { path, method, op } of operations) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const names = Object.keys((response as Json).headers ?? {});
        const where = `${method} ${path} ${status}`;
        expect(names, where).to.include.members(['X-Request-Id', 'X-Correlation-Id', 'X-Service-Env', 'X-Service-API-Version', 'X-Service-Banner']);
        if (op['x-rate-limit'] !== 'exempt') expect(names, where).to.include.members(['X-RateLimit-Limit', 'X-RateLimit-Remaining']);
        if (status === '429') expect(names, where).to.include('Retry-After');
        if (status === '401') expect(names, where).to.include('WWW-Authenticate');
      }
    }
    expect(document.paths['/v1/operations/direct'].post.responses['201'].headers).to.have.property('Idempotency-Replayed');
    expect(document.paths['/v1/auth/token'].post.responses['200'].headers).to.not.have.property('Idempotency-Replayed');
    for (const name of Object.keys(document.components.headers)) expect(resolve(document.components.headers[name]).schema, name).to.be.an('object');
  });

  it('lists 403 with the WWW-Authenticate header on every operation that asks for scopes: the insufficient_scope challenge (RFC 6750 §3.1)', () => {
    const scoped = operations.filter(({ op }) => (op.security ?? []).some((requirement: Json) => Object.values(requirement).some((scopes) => (scopes as string[]).length > 0)));
    const missing = scoped.filter(({ op }) => !op.responses['403']?.headers?.['WWW-Authenticate']).map(({ method, path }) => `${method} ${path}`);
    expect(missing).to.deep.equal([]);
    expect(scoped.length).to.be.greaterThan(50);
    expect(resolve(document.components.headers['WWW-Authenticate']).description).to.include('error="insufficient_scope"');
  });

  it('names a contact in info and a format on every integer of the webhook payloads (Spectral oas info-contact, OWASP integer-format)', () => {
    expect(document.info.contact).to.have.property('url').that.is.a('string');
    const integers = schemasUnder(document.webhooks).filter((schema) => schema.type === 'integer' || (Array.isArray(schema.type) && schema.type.includes('integer')));
    expect(integers.length).to.be.greaterThan(0);
    expect(integers.filter((schema) => schema.format === undefined)).to.deep.equal([]);
  });

  it('lists 422 on every operation: the input guard and the body parsers refuse before any route', () => {
    expect(operations.filter(({ op }) => !op.responses['422']).map(({ method, path }) => `${method} ${path}`)).to.deep.equal([]);
  });

  it('bounds every string and array a request can carry (maxLength, maxItems, or a closed enum or const)', () => {
    const types = (schema: Json): unknown[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);
    const handlerChecked = (schema: Json, keyword: string) => (schema.allOf ?? []).some((member: Json) => member['x-checked-by-handler'] && member[keyword] !== undefined);
    const unbounded: string[] = [];
    for (const { path, method, op } of operations) {
      const inputs = [...(op.parameters ?? []).map((parameter: Json) => resolve(parameter).schema), ...Object.values(op.requestBody?.content ?? {}).map((media) => (media as Json).schema)];
      for (const schema of inputs.flatMap((input) => schemasUnder(input))) {
        const closed = schema.enum !== undefined || schema.const !== undefined;
        if (types(schema).includes('string') && schema.maxLength === undefined && !closed) unbounded.push(`${method} ${path} string ${JSON.stringify(schema).slice(0, 80)}`);
        if (types(schema).includes('array') && schema.maxItems === undefined && !handlerChecked(schema, 'maxItems')) unbounded.push(`${method} ${path} array`);
      }
    }
    expect(unbounded).to.deep.equal([]);
  });

  it('declares a body on every POST, an ignored one where the route reads none', () => {
    expect(operations.filter(({ method, op }) => method === 'post' && !op.requestBody).map(({ path }) => path)).to.deep.equal([]);
    expect(document.paths['/v1/webhooks/{webhook_id}/rotate-secret'].post.requestBody).to.include({ required: false });
  });

  it('uses no multipleOf (float-dividing validators misread it) and states decimals as x-number-grid', () => {
    const withoutGrids = JSON.stringify(document, (key, value) => (key === 'x-number-grid' ? undefined : value));
    expect(withoutGrids).to.not.include('"multipleOf"');
    expect(JSON.stringify(document)).to.include('"x-number-grid":[{"multipleOf":0.01');
  });

  it('bounds the receivables lists of simulation and creation with maxItems', () => {
    for (const path of ['/v1/simulate', '/v1/operations/direct']) {
      const lists = schemasUnder(document.paths[path].post.requestBody).filter((schema) => schema.type === 'array' && schema.items?.$ref === '#/components/schemas/ReceivableInput');
      expect(lists.length, path).to.be.greaterThan(0);
      for (const list of lists) expect(list.allOf.some((rule: Json) => rule.maxItems === 1000), path).to.equal(true);
    }
  });

  it('links each creation to what follows it, with the target\'s own path parameters', () => {
    const byId = new Map(operations.map(({ path, op }) => [op.operationId, { path, op }]));
    const links = operations.flatMap(({ op }) => Object.values(op.responses as Json).flatMap((response) => Object.values((response as Json).links ?? {}) as Json[]));
    expect(links.length).to.be.greaterThan(20);
    for (const link of links) {
      const target = byId.get(link.operationId);
      expect(target, link.operationId).to.not.equal(undefined);
      const pathParameters = [...target!.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      expect(Object.keys(link.parameters), link.operationId).to.deep.equal(pathParameters);
    }
    const fromCreation = document.paths['/v1/operations/direct'].post.responses['201'].links;
    expect(fromCreation.read).to.deep.equal({ operationId: 'getOperation', parameters: { id: '$response.body#/id' } });
    expect(fromCreation.payFirstTitle.parameters).to.deep.equal({ id: '$response.body#/titles/0/id' });
    const prod = buildDocument('http://127.0.0.1:8000', 'prod') as Json;
    expect(prod.paths['/v1/operations/direct'].post.responses['201'].links).to.not.have.property('simulatePayerOfFirstTitle');
  });
});
