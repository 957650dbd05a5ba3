// Schemathesis against the whole stack (Postgres, Temporal, sandbox providers, worker, api), as
// `npm test` starts it, with rate limits off. Config: fuzz/schemathesis.toml; hooks: fuzz/hooks.py.
// The services' logs and schemathesis' own report go to files under .data/; the log gets one
// verdict line (scripts/lib/fuzz-verdict.mjs), so the only test-runner summary in CI is the suite's.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureSchemathesis } from './contract-tools.mjs';
import { createDatabase, dropDatabase, ROOT, say, startInfra } from './infra.mjs';
import { fuzzVerdict } from './fuzz-verdict.mjs';
import { freePort } from './ports.mjs';
import { migrateAndSeed, serviceEnv, startServices } from './stack.mjs';

const DEMO = {
  clientId: 'zk_sbx_demo_a', clientSecret: 'sk_sbx_demo_a_secret',
  productId: '01930000-0000-7000-8000-0000000000a3', policyId: '01930000-0000-7000-8000-0000000000a2',
  email: 'backoffice@example.com', password: 'backoffice-dev-password',
};

const FUZZ_ASSIGNOR_CPF = '52998224725';

/**
 * What the routes that need existing data find: an assignor of the demo originator (payables,
 * credits, stock by document), two of its stock items (the stock anticipation examples), and an
 * operation with its title (the operation and title `{id}` routes).
 */
async function prepare(url) {
  const call = async (route, body, token) => {
    const res = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status >= 300) throw new Error(`preparing the fuzz data: ${route} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const { access_token: token } = await call('/v1/auth/token', { client_id: DEMO.clientId, client_secret: DEMO.clientSecret });
  const assignor = await call('/v1/assignors', { name: 'Fuzz Assignor', type: 'F', cpf: FUZZ_ASSIGNOR_CPF, email: 'fuzz-assignor@example.com' }, token);
  const dueDate = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const items = [1, 2].map((n) => ({
    external_id: `FUZZ-PREPARED-${n}`, payer_name: 'Pagador Exemplo Ltda', payer_document: '11222333000181', due_date: dueDate, net_future_value: '5000.00',
  }));
  const stock = await call('/v1/stock', { assignor_document: FUZZ_ASSIGNOR_CPF, items }, token);
  // An operation and its title, for the `{id}` routes of operations and titles outside the stateful phase's links.
  const operation = await call('/v1/operations/direct', {
    name: 'Comercial Fuzz Preparada Ltda', type: 'J', cnpj: '11444777000161', email: 'prepared@fuzz.example', bank: {},
    receivables: [{ ...items[0], external_id: 'FUZZ-PREPARED-OP', requested_net_future_value: '5000.00' }],
  }, token);
  return { assignorId: assignor.id, stockItemIds: stock.items.map((item) => item.id), operationId: operation.id, titleId: operation.titles[0].id };
}

async function waitForHealth(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`${url}/v1/health`).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the api at ${url} was not healthy within ${timeoutMs} ms`);
}

const schemathesis = ensureSchemathesis();
const infra = await startInfra({ purpose: 'test' });
const database = `ra_fuzz_${process.pid}`;
const databaseUrl = await createDatabase(infra.serverUrl, database, { recreate: true });
const apiPort = await freePort();
const env = serviceEnv({
  databaseUrl, temporalAddress: infra.temporalAddress, apiPort, sandboxPort: await freePort(),
  overrides: { SERVICE_ENV: 'dev', RATE_LIMIT_ENABLED: 'false', PUBLIC_URL: `http://127.0.0.1:${apiPort}` },
});
const apiUrl = `http://127.0.0.1:${apiPort}`;
mkdirSync(path.join(ROOT, '.data'), { recursive: true });
const logFile = path.join(ROOT, '.data', `fuzz-services-${process.pid}.log`);
const logFd = openSync(logFile, 'w');
const reportFile = path.join(ROOT, '.data', `fuzz-report-${process.pid}.txt`);
const reportJson = path.join(ROOT, '.data', `fuzz-report-${process.pid}.json`);
const reportFd = openSync(reportFile, 'w');

let code = 1;
let services = null;
try {
  if (!migrateAndSeed(env)) throw new Error('migration or seed failed');
  services = startServices(env, { stdio: logFd, onExit: (name, exitCode) => say(`${name} exited (${exitCode}) during the fuzz run`) });
  await waitForHealth(apiUrl, 90_000);
  const prepared = await prepare(apiUrl);
  say(`fuzzing ${apiUrl} with schemathesis (its report in ${path.relative(ROOT, reportFile)}, services' logs in ${path.relative(ROOT, logFile)})`);
  const child = spawn(schemathesis, [
    '--config-file', path.join(ROOT, 'fuzz', 'schemathesis.toml'), 'run', `${apiUrl}/v1/openapi.json`,
    '--report', 'json', '--report-json-path', reportJson, '--no-color', ...process.argv.slice(2),
  ], {
    cwd: ROOT,
    stdio: ['ignore', reportFd, reportFd],
    env: {
      ...process.env,
      PYTHONPATH: ROOT,
      SCHEMATHESIS_HOOKS: 'fuzz.hooks',
      FUZZ_CLIENT_ID: DEMO.clientId,
      FUZZ_CLIENT_SECRET: DEMO.clientSecret,
      FUZZ_USER_EMAIL: DEMO.email,
      FUZZ_USER_PASSWORD: DEMO.password,
      FUZZ_PRODUCT_IDS: DEMO.productId,
      FUZZ_POLICY_IDS: DEMO.policyId,
      FUZZ_ASSIGNOR_IDS: prepared.assignorId,
      FUZZ_ASSIGNOR_DOCUMENT: FUZZ_ASSIGNOR_CPF,
      FUZZ_STOCK_ITEM_IDS: prepared.stockItemIds.join(','),
      FUZZ_OPERATION_IDS: prepared.operationId,
      FUZZ_TITLE_IDS: prepared.titleId,
      FUZZ_ESIGN_CALLBACK_SECRET: env.ESIGN_CALLBACK_SECRET,
      FUZZ_PIX_CALLBACK_SECRET: env.PIX_CALLBACK_SECRET,
      FUZZ_PIX_COLLECTION_CALLBACK_SECRET: env.PIX_COLLECTION_CALLBACK_SECRET,
    },
  });
  const stop = () => child.kill('SIGINT');
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise((resolve) => child.on('exit', resolve));
  if (!existsSync(reportJson)) throw new Error(`schemathesis wrote no run report; its output is in ${path.relative(ROOT, reportFile)}`);
  const text = readFileSync(reportJson, 'utf8');
  // The seed is a 128-bit integer, beyond what a JSON number keeps: read as written.
  const report = { ...JSON.parse(text), seed: /"seed":\s*(-?\d+)/.exec(text)?.[1] ?? null };
  const verdict = fuzzVerdict(report, { reportFile: path.relative(ROOT, reportFile) });
  process.stdout.write(`${verdict.line}\n`);
  code = verdict.passed ? 0 : 1;
} catch (err) {
  say(`fuzz run failed: ${err.message}`);
} finally {
  await services?.stop();
  closeSync(logFd);
  closeSync(reportFd);
  await dropDatabase(infra.serverUrl, database).catch(() => undefined);
  await infra.stop();
}
process.exit(code);
