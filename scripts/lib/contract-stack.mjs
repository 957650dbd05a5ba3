// The whole stack (Postgres, Temporal, sandbox providers, worker, api) as `npm test` starts it,
// with rate limits off, for the black-box contract runs: schemathesis (`npm run fuzz`) and Prism's
// validation proxy (`npm run prism`). The services' logs go to a file under .data/.
import { randomUUID } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createDatabase, dropDatabase, ROOT, say, startInfra } from './infra.mjs';
import { freePort } from './ports.mjs';
import { migrateAndSeed, serviceEnv, startServices } from './stack.mjs';

export const DEMO = {
  clientId: 'zk_sbx_demo_a', clientSecret: 'sk_sbx_demo_a_secret',
  productId: '01930000-0000-7000-8000-0000000000a3', policyId: '01930000-0000-7000-8000-0000000000a2',
  // The demo policy's maximum receivables per operation (db/seeds/dev-seed.ts).
  maxReceivablesPerOperation: 500,
  email: 'backoffice@example.com', password: 'backoffice-dev-password',
  userId: '01930000-0000-7000-8000-0000000000f1',
  // The dev admin signs in with a TOTP code (db/seeds/dev-seed.ts, README).
  admin: { email: 'admin@example.com', password: 'admin-dev-password', totpSecret: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU' },
  // The second admin, who confirms the first's grants of approver or admin.
  admin2: { email: 'admin2@example.com', password: 'admin2-dev-password', totpSecret: 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' },
};

/** The RFC 6238 code of a base32 secret now, from the service's own implementation (platform/crypto/totp.ts). */
export async function totpNow(secret) {
  const { tsImport } = await import('tsx/esm/api');
  const { totpCode, totpStep } = await tsImport('../../platform/crypto/totp.ts', import.meta.url);
  return totpCode(secret, totpStep(new Date()));
}

export const PREPARED_ASSIGNOR_CPF = '52998224725';

/**
 * What the routes that need existing data find: an assignor of the demo originator (payables,
 * credits, stock by document), two of its stock items (the stock anticipation examples), an
 * operation with its title (the operation and title `{id}` routes), a title of that assignor (a
 * payable's origin title), a webhook subscription with a delivery (the retry route), and grants
 * of approver the second admin asked for (the confirmation route, for the first admin).
 */
async function prepare(url, mailUrl) {
  const call = async (route, body, token) => {
    const res = await fetch(`${url}${route}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': randomUUID(), ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const answer = await res.json();
    if (res.status >= 300) throw new Error(`preparing the contract run's data: ${route} answered ${res.status}: ${JSON.stringify(answer)}`);
    return answer;
  };
  const { access_token: token } = await call('/v1/auth/token', { client_id: DEMO.clientId, client_secret: DEMO.clientSecret });
  const assignor = await call('/v1/assignors', { name: 'Fuzz Assignor', type: 'F', cpf: PREPARED_ASSIGNOR_CPF, email: 'fuzz-assignor@example.com' }, token);
  // Before the operations below, so that their operation.created events are delivered to it.
  const webhook = await call('/v1/webhooks', { url: 'https://127.0.0.1:9/fuzz-prepared-hook', events: ['operation.created'] }, token);
  const dueDate = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
  const items = [1, 2].map((n) => ({
    external_id: `FUZZ-PREPARED-${n}`, payer_name: 'Pagador Exemplo Ltda', payer_document: '11222333000181', due_date: dueDate, net_future_value: '5000.00',
  }));
  const stock = await call('/v1/stock', { assignor_document: PREPARED_ASSIGNOR_CPF, items }, token);
  // Operations and a title, for the `{id}` routes of operations and titles outside the stateful
  // phase's links: one to read and sign, one to cancel (cancelling ends its contract).
  const createOperation = (externalId) => call('/v1/operations/direct', {
    name: 'Comercial Fuzz Preparada Ltda', type: 'J', cnpj: '11444777000161', email: 'prepared@fuzz.example', bank: {},
    receivables: [{ ...items[0], external_id: externalId, requested_net_future_value: '5000.00' }],
  }, token);
  const operation = await createOperation('FUZZ-PREPARED-OP');
  const cancellable = await createOperation('FUZZ-PREPARED-CANCEL');
  const ofAssignor = await call('/v1/operations/direct', {
    name: 'Fuzz Assignor', type: 'F', cpf: PREPARED_ASSIGNOR_CPF, email: 'fuzz-assignor@example.com', bank: {},
    receivables: [{ ...items[0], external_id: 'FUZZ-PREPARED-ASSIGNOR-OP', requested_net_future_value: '5000.00' }],
  }, token);
  const delivery = await firstDelivery(url, webhook.id, token);
  // The admin (who alone manages staff accounts) and pending invitations, for the enrolment route.
  const { access_token: adminToken } = await call('/v1/auth/login', { email: DEMO.admin.email, password: DEMO.admin.password, totp: await totpNow(DEMO.admin.totpSecret) });
  // One after another: twenty at once outran the database's per-request budget on a busy machine.
  const enrolmentTokens = [];
  for (let n = 0; n < 20; n += 1) {
    const invited = await call('/v1/backoffice/users', { email: `invited-${n}-${randomUUID()}@fuzz.example`, name: 'Fuzz Invitee', role: 'viewer' }, adminToken);
    enrolmentTokens.push(await enrolmentTokenOf(mailUrl, invited.email));
  }
  const { access_token: secondAdminToken } = await call('/v1/auth/login', { email: DEMO.admin2.email, password: DEMO.admin2.password, totp: await totpNow(DEMO.admin2.totpSecret) });
  const roleGrantIds = [];
  for (let n = 0; n < 12; n += 1) {
    const granted = await call('/v1/backoffice/users', { email: `approver-${n}-${randomUUID()}@fuzz.example`, name: 'Fuzz Approver', role: 'approver' }, secondAdminToken);
    roleGrantIds.push(granted.pending_grant.id);
  }
  return {
    assignorId: assignor.id, stockItemIds: stock.items.map((item) => item.id), operationId: operation.id, cancellableOperationId: cancellable.id,
    titleId: operation.titles[0].id, assignorTitleId: ofAssignor.titles[0].id, webhookId: webhook.id, deliveryId: delivery.id, adminToken, enrolmentTokens,
    secondAdminToken, roleGrantIds,
  };
}

/** The enrolment token of the newest invitation e-mailed to `email`, as the invitee reads it in the sandbox's mailbox. */
export async function enrolmentTokenOf(mailUrl, email) {
  const res = await fetch(`${mailUrl}/mailbox?to=${encodeURIComponent(email)}`);
  const { messages } = await res.json();
  if (!messages?.[0]?.enrolment_token) throw new Error(`no invitation e-mail to ${email} in the sandbox's mailbox (${res.status})`);
  return messages[0].enrolment_token;
}

/** The worker's dispatcher delivers (and records) the subscription's events a moment after they happen. */
async function firstDelivery(url, webhookId, token, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await fetch(`${url}/v1/webhooks/${webhookId}/deliveries`, { headers: { Authorization: `Bearer ${token}` } });
    const page = await res.json();
    if (res.status === 200 && page.items.length > 0) return page.items[0];
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`preparing the contract run's data: no delivery to webhook ${webhookId} within ${timeoutMs} ms`);
}

async function waitForHealth(url, timeoutMs, stopped) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (stopped()) throw new Error(`${stopped()} before the api at ${url} was healthy`);
    const status = await fetch(`${url}/v1/health`).then((r) => r.status, () => 0);
    if (status === 200) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the api at ${url} was not healthy within ${timeoutMs} ms`);
}

/**
 * The services' last `lines` lines but their access log (one line per request, which buries a
 * process's dying words), indented, for a failure's evidence in the CI log.
 */
function evidenceIn(file, lines = 40) {
  const kept = readFileSync(file, 'utf8').split('\n').filter((line) => line.trim() && !line.includes('"message":"request"'));
  return kept.length ? kept.slice(-lines).map((line) => `    ${line.slice(0, 600)}`).join('\n') : '    (nothing but requests)';
}

/** A stack that never became healthy or could not prepare its data: the run's checks never started. */
class StackDidNotStart extends Error {}

/**
 * Starts the stack, prepares its data, runs `body({ apiUrl, env, prepared })` and stops everything;
 * resolves to the exit code `body` returns (1 when anything throws, said in one line). A stack that
 * does not come up (not healthy, its data not prepared) is started once more from fresh Postgres and
 * Temporal, after its evidence is printed (the services' last log lines, whether the Temporal dev
 * server died): a fresh-clone CI run once saw the worker exit and the api stay unhealthy at start-up,
 * right after the fuzz run's stack had come up and passed on the same code.
 */
export async function withContractStack(name, body) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runOnStack(name, body, attempt);
    } catch (err) {
      if (!(err instanceof StackDidNotStart)) throw err;
      if (attempt === 2) return 1;
      say(`${name}: starting the whole stack once more from fresh Postgres and Temporal`);
    }
  }
}

async function runOnStack(name, body, attempt) {
  const infra = await startInfra({ purpose: 'test' });
  const database = `ra_${name}_${process.pid}`;
  const databaseUrl = await createDatabase(infra.serverUrl, database, { recreate: true });
  const apiPort = await freePort();
  const env = serviceEnv({
    databaseUrl, temporalAddress: infra.temporalAddress, apiPort, sandboxPort: await freePort(),
    // Tokens outlive a long run on a busy machine: the admin token prepare() hands over is fetched once.
    overrides: { SERVICE_ENV: 'dev', RATE_LIMIT_ENABLED: 'false', PUBLIC_URL: `http://127.0.0.1:${apiPort}`, TOKEN_TTL_SECONDS: '7200' },
  });
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  mkdirSync(path.join(ROOT, '.data'), { recursive: true });
  // The second attempt's log beside the first's, which the first's failure message names.
  const logFile = path.join(ROOT, '.data', `${name}-services-${process.pid}${attempt > 1 ? `-${attempt}` : ''}.log`);
  const logFd = openSync(logFile, 'w');
  let services = null;
  let firstExit = null;
  let prepared;
  try {
    try {
      if (!migrateAndSeed(env)) throw new Error('migration or seed failed');
      services = startServices(env, {
        stdio: logFd,
        onExit: (service, exitCode) => {
          firstExit ??= `${service} exited (${exitCode})`;
          say(`${service} exited (${exitCode}) during the ${name} run`);
        },
      });
      await waitForHealth(apiUrl, 90_000, () => firstExit);
      prepared = await prepare(apiUrl, env.MAIL_SANDBOX_URL);
      if (firstExit) throw new Error(`${firstExit} while the run's data was prepared`);
    } catch (err) {
      say(`${name} run failed: the stack did not come up: ${err.message}; ${infra.diagnose()}; the services' last lines but requests (${path.relative(ROOT, logFile)}):\n${evidenceIn(logFile)}`);
      throw new StackDidNotStart(err.message);
    }
    return await body({ apiUrl, env, prepared, logFile: path.relative(ROOT, logFile) });
  } catch (err) {
    if (err instanceof StackDidNotStart) throw err;
    say(`${name} run failed: ${err.message}`);
    return 1;
  } finally {
    await services?.stop();
    closeSync(logFd);
    await dropDatabase(infra.serverUrl, database).catch(() => undefined);
    await infra.stop();
  }
}
