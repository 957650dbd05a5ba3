// Prism's validation proxy (Stoplight, @stoplight/prism-cli, run with `npm exec` at a pinned
// version, not a dependency) in front of the whole stack, over the black-box flow of
// scripts/lib/prism-flow.mjs. Prism checks each request and each answer against the live document
// and reports what breaks it in the `sl-violations` header. The run passes when no answer breaks the
// document, no request meant to be valid does, and the flow reached every documented operation.
// Every exchange goes to .data/prism-report-<pid>.json; the log gets one verdict line.
import { spawn } from 'node:child_process';
import { openSync, writeFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { withContractStack } from './contract-stack.mjs';
import { PRISM_VERSION } from './contract-tools.mjs';
import { ROOT, say } from './infra.mjs';
import { freePort } from './ports.mjs';
import { blackBoxFlow } from './prism-flow.mjs';
import { prismVerdict } from './prism-verdict.mjs';
import { OutputTail, waitForChildPort } from './startup.mjs';

/** Each documented operation as `METHOD /template`, with a matcher for concrete paths. */
function operationsOf(document) {
  return Object.entries(document.paths).flatMap(([template, item]) => Object.keys(item).filter((method) => item[method]?.responses).map((method) => ({
    key: `${method.toUpperCase()} ${template}`,
    method: method.toUpperCase(),
    literal: (template.match(/\{/g) ?? []).length,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }))).sort((a, b) => a.literal - b.literal);
}

/** The proxy's client: every exchange recorded with the operation it reached and Prism's violations. */
function proxyClient(proxyUrl, operations) {
  const exchanges = [];
  const call = async (method, route, { token, body, form, headers = {}, basic, invalid = false } = {}) => {
    const pathOnly = route.split('?')[0];
    const operation = operations.find((op) => op.method === method && op.pattern.test(pathOnly))?.key ?? `${method} ${pathOnly} (undocumented)`;
    const sent = { ...headers };
    if (token) sent.Authorization = `Bearer ${token}`;
    if (basic) sent.Authorization = `Basic ${Buffer.from(basic.map(encodeURIComponent).join(':')).toString('base64')}`;
    let payload;
    if (form) {
      sent['Content-Type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(form).toString();
    } else if (body !== undefined) {
      sent['Content-Type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(`${proxyUrl}${route}`, { method, headers: sent, body: payload, signal: AbortSignal.timeout(60_000) });
    const text = await res.text();
    const violations = JSON.parse(res.headers.get('sl-violations') ?? '[]');
    exchanges.push({ operation, method, route, invalid, status: res.status, violations });
    let parsed = null;
    try { parsed = text ? JSON.parse(text) : null; } catch { parsed = null; }
    return { status: res.status, body: parsed };
  };
  return { call, exchanges };
}

/**
 * The live document as Prism reads it: without `jsonSchemaDialect`. Prism 5.16 silently skips
 * request body validation when the field is present, even set to the OAS 3.1 base dialect, which
 * is also the default when it is absent: the copy means the same thing.
 */
function documentForPrism(document) {
  const { jsonSchemaDialect: _default, ...rest } = document;
  const file = path.join(ROOT, '.data', `prism-openapi-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(rest));
  return file;
}

async function startPrism(apiUrl, documentFile) {
  const port = await freePort();
  const tail = new OutputTail();
  const log = openSync(path.join(ROOT, '.data', `prism-proxy-${process.pid}.log`), 'w');
  // Its own process group, so that stopping it stops the prism that `npm exec` started.
  const child = spawn('npm', ['exec', '--yes', `--package=@stoplight/prism-cli@${PRISM_VERSION}`, '--', 'prism', 'proxy',
    documentFile, apiUrl, '--host', '127.0.0.1', '--port', String(port)], { cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  tail.follow(child);
  child.stdout.on('data', (chunk) => writeSync(log, chunk));
  child.stderr.on('data', (chunk) => writeSync(log, chunk));
  const stop = () => { try { process.kill(-child.pid, 'SIGTERM'); } catch { /* already gone */ } };
  try {
    await waitForChildPort({ child, port, timeoutMs: 180_000, what: 'Prism', tail });
  } catch (err) {
    stop();
    throw err;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}

const code = await withContractStack('prism', async ({ apiUrl, env, prepared }) => {
  const document = await (await fetch(`${apiUrl}/v1/openapi.json`)).json();
  const operations = operationsOf(document);
  const prism = await startPrism(apiUrl, documentForPrism(document));
  try {
    const client = proxyClient(prism.url, operations);
    await blackBoxFlow(client, { prepared, env });
    const verdict = prismVerdict(client.exchanges, operations);
    const reportFile = path.join(ROOT, '.data', `prism-report-${process.pid}.json`);
    writeFileSync(reportFile, `${JSON.stringify(client.exchanges, null, 1)}\n`);
    for (const exchange of [...verdict.responseViolations, ...verdict.requestViolations]) {
      say(`${exchange.method} ${exchange.route} ${exchange.status}: ${exchange.violations.map((v) => `${v.location.join('.')} ${v.message}`).join('; ')}`);
    }
    process.stdout.write(`${verdict.line} (every exchange in ${path.relative(ROOT, reportFile)})\n`);
    return verdict.passed ? 0 : 1;
  } finally {
    prism.stop();
  }
});
process.exit(code);
