import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { startChild } from '../support/child-process';
import { ApiClient } from '../support/http';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs a command to its end: exit code and everything it printed. */
function run(command: string, args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; });
    child.stderr.on('data', (d) => { output += d; });
    child.on('exit', (code) => resolve({ code, output }));
  });
}

/** Issue #13: production answers from compiled JavaScript, and refuses to start without SERVICE_ENV. */
describe('the compiled build', function () {
  this.timeout(240_000);
  const withoutServiceEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'SERVICE_ENV'));

  before(async () => {
    const build = await run(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], process.env);
    expect(build.code, build.output).to.equal(0);
  });

  it('npm run build emits dist/, from which migrations, the api and the worker run under plain node', async () => {
    // Already migrated from source: the compiled migrations are the same history, so nothing runs twice.
    const migrate = await run(process.execPath, ['dist/db/cli.js', 'migrate'], process.env);
    expect(migrate.code, migrate.output).to.equal(0);
    const api = await startChild('dist/api/server.js', { PORT: '0', LOG_LEVEL: 'error', SERVICE_ENV: 'dev' }, /api listening on (http:\/\/[\d.:]+)/);
    const worker = await startChild('dist/worker/main.js', { LOG_LEVEL: 'error', SERVICE_ENV: 'dev' }, /worker polling task queue/, 120_000);
    try {
      const health = await new ApiClient(api.match[1]).get('/v1/health');
      expect(health.status, health.text).to.equal(200);
      expect(health.headers.get('x-service-env')).to.equal('dev');
      expect(api.process.spawnargs).to.deep.equal([process.execPath, 'dist/api/server.js']);
      // Assets the compiled api reads beside its code: the console, the docs and the frozen release.
      for (const page of ['/backoffice/', '/docs/', '/v1/openapi/1.6.0.json']) {
        const res = await new ApiClient(api.match[1]).get(page);
        expect(res.status, page).to.equal(200);
      }
    } finally {
      await api.kill('SIGTERM');
      await worker.kill('SIGTERM');
    }
  });

  it('requires nothing at run time but the production dependencies (`npm install --omit=dev`: no embedded Postgres, no tsx)', () => {
    const { dependencies } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    const files = (readdirSync(path.join(ROOT, 'dist'), { recursive: true }) as string[]).filter((file) => file.endsWith('.js'));
    const required = new Set(files.flatMap((file) => [...readFileSync(path.join(ROOT, 'dist', file), 'utf8').matchAll(/require\("([^".][^"]*)"\)/g)].map((m) => m[1])));
    const packageOf = (name: string) => name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/');
    const outside = [...required].filter((name) => !name.startsWith('node:') && !builtinModules.includes(name) && !(packageOf(name) in dependencies));
    expect(required.size).to.be.greaterThan(10);
    expect(outside).to.deep.equal([]);
  });

  it('the api and the worker refuse to start without SERVICE_ENV', async () => {
    for (const entry of ['dist/api/server.js', 'dist/worker/main.js']) {
      const started = await run(process.execPath, [entry], { ...withoutServiceEnv(), PORT: '0' });
      expect(started.code, entry).to.equal(1);
      expect(started.output, entry).to.include('SERVICE_ENV is required');
    }
  });
});
