// Schemathesis against the whole stack (scripts/lib/contract-stack.mjs). Config:
// fuzz/schemathesis.toml; hooks: fuzz/hooks.py.
// The services' logs and schemathesis' own report go to files under .data/; the log gets one
// verdict line (scripts/lib/fuzz-verdict.mjs), so the only test-runner summary in CI is the suite's.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ensureSchemathesis } from './contract-tools.mjs';
import { DEMO, PREPARED_ASSIGNOR_CPF, withContractStack } from './contract-stack.mjs';
import { ROOT, say } from './infra.mjs';
import { fuzzVerdict } from './fuzz-verdict.mjs';
import { throwAwayA1 } from './a1-certificate.mjs';

const schemathesis = ensureSchemathesis();
mkdirSync(path.join(ROOT, '.data'), { recursive: true });
const reportFile = path.join(ROOT, '.data', `fuzz-report-${process.pid}.txt`);
const reportJson = path.join(ROOT, '.data', `fuzz-report-${process.pid}.json`);
const reportFd = openSync(reportFile, 'w');
const A1_PASSWORD = 'fuzz-a1-password';

const code = await withContractStack('fuzz', async ({ apiUrl, env, prepared, logFile }) => {
  say(`fuzzing ${apiUrl} with schemathesis (its report in ${path.relative(ROOT, reportFile)}, services' logs in ${logFile})`);
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
      FUZZ_ASSIGNOR_DOCUMENT: PREPARED_ASSIGNOR_CPF,
      FUZZ_STOCK_ITEM_IDS: prepared.stockItemIds.join(','),
      FUZZ_OPERATION_IDS: prepared.operationId,
      FUZZ_TITLE_IDS: prepared.titleId,
      FUZZ_ASSIGNOR_TITLE_ID: prepared.assignorTitleId,
      FUZZ_WEBHOOK_ID: prepared.webhookId,
      FUZZ_DELIVERY_ID: prepared.deliveryId,
      FUZZ_MAX_RECEIVABLES: String(DEMO.maxReceivablesPerOperation),
      FUZZ_API_URL: apiUrl,
      FUZZ_CANCELLABLE_OPERATION_IDS: prepared.cancellableOperationId,
      FUZZ_ENROLMENT_TOKENS: prepared.enrolmentTokens.join(','),
      FUZZ_ADMIN_TOKEN: prepared.adminToken,
      FUZZ_ROLE_GRANT_IDS: prepared.roleGrantIds.join(','),
      FUZZ_USER_ID: DEMO.userId,
      FUZZ_ESIGN_CALLBACK_SECRET: env.ESIGN_CALLBACK_SECRET,
      FUZZ_PIX_CALLBACK_SECRET: env.PIX_CALLBACK_SECRET,
      FUZZ_PIX_COLLECTION_CALLBACK_SECRET: env.PIX_COLLECTION_CALLBACK_SECRET,
      FUZZ_REGISTRAR_CALLBACK_SECRET: env.REGISTRAR_CALLBACK_SECRET,
      // The prepared assignor's delegated certificate, for the certificate routes' positive cases.
      FUZZ_A1_PFX: await throwAwayA1(PREPARED_ASSIGNOR_CPF, A1_PASSWORD),
      FUZZ_A1_PASSWORD: A1_PASSWORD,
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
  return verdict.passed ? 0 : 1;
});
closeSync(reportFd);
process.exit(code);
