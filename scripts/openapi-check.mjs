#!/usr/bin/env node
// Contract checks on the live OpenAPI document:
//   lint      Redocly CLI, `recommended` ruleset plus redocly.yaml, and Spectral with its `oas` and the
//             OWASP API Security rulesets (.spectral.yaml), every warning of which must be listed with
//             its reason in api/openapi/spectral-exceptions.txt (part of `npm run lint`)
//   spectral-exceptions  rewrites that list from the live document (review the diff)
//   breaking  oasdiff against every frozen release in api/openapi/releases/ (fails on ERR level);
//             `<version>.accepted.txt` beside a release lists the ERR findings accepted, each with
//             its reason on a `#` line above it
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOasdiff } from './lib/contract-tools.mjs';
import { compareWithExceptions, readExceptions, writeExceptions } from './lib/spectral-exceptions.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RELEASES = path.join(ROOT, 'api', 'openapi', 'releases');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);
const SPECTRAL_EXCEPTIONS = path.join(ROOT, 'api', 'openapi', 'spectral-exceptions.txt');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: ROOT, stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

// Redocly fails only on errors; the project's bar is no warning either, so the JSON report is read.
function lint(file) {
  const result = spawnSync(bin('redocly'), ['lint', '--config', path.join(ROOT, 'redocly.yaml'), '--format', 'json', file], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  const report = JSON.parse(result.stdout);
  for (const problem of report.problems) {
    const where = problem.location?.[0]?.pointer ?? '';
    process.stderr.write(`${problem.severity.padEnd(7)} ${problem.ruleId.padEnd(40)} ${where.replace(/~1/g, '/').replace(/~0/g, '~')}  ${problem.message}\n`);
  }
  const { errors, warnings } = report.totals;
  process.stderr.write(`[openapi] Redocly lint (recommended + redocly.yaml): ${errors} errors, ${warnings} warnings\n`);
  return errors + warnings === 0 ? 0 : 1;
}

/** Spectral with the `oas` and OWASP rulesets: its findings, or null when it did not answer in JSON. */
function spectralFindings(file) {
  const result = spawnSync(bin('spectral'), ['lint', '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet', file], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  try {
    return JSON.parse(result.stdout || '[]');
  } catch {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    return null;
  }
}

/** Fails on any error, and on any warning that SPECTRAL_EXCEPTIONS does not list with its reason. */
function spectral(file) {
  const findings = spectralFindings(file);
  if (!findings) return 1;
  const errors = findings.filter((p) => p.severity === 0);
  for (const problem of errors) process.stderr.write(`error   ${problem.code.padEnd(40)} ${problem.path.join('/')}  ${problem.message}\n`);
  const { unlisted, gone, unreviewed, kept } = compareWithExceptions(findings.filter((p) => p.severity > 0), readExceptions(SPECTRAL_EXCEPTIONS));
  const rewrite = 'fix it, or rewrite the list with `node scripts/openapi-check.mjs spectral-exceptions` and review its reason';
  for (const key of unlisted) process.stderr.write(`new warning, not in ${path.relative(ROOT, SPECTRAL_EXCEPTIONS)}: ${key} (${rewrite})\n`);
  for (const key of gone) process.stderr.write(`listed but no longer found: ${key} (rewrite the list)\n`);
  for (const key of unreviewed) process.stderr.write(`listed without a reason: ${key}\n`);
  process.stderr.write(`[openapi] Spectral oas + OWASP (.spectral.yaml): ${errors.length} errors, ${unlisted.length} new warnings, `
    + `${kept - unlisted.length} kept with their reasons in ${path.relative(ROOT, SPECTRAL_EXCEPTIONS)}\n`);
  return errors.length + unlisted.length + gone.length + unreviewed.length === 0 ? 0 : 1;
}

const mode = process.argv[2];
if (mode !== 'lint' && mode !== 'breaking' && mode !== 'spectral-exceptions') {
  process.stderr.write('usage: node scripts/openapi-check.mjs lint|breaking|spectral-exceptions\n');
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
const live = path.join(dir, 'openapi.json');
let status = run(bin('tsx'), ['scripts/openapi-document.ts', live]);
if (status === 0 && mode === 'lint') status = lint(live) || spectral(live);
if (status === 0 && mode === 'spectral-exceptions') {
  const findings = spectralFindings(live);
  const document = JSON.parse(readFileSync(live, 'utf8'));
  if (findings) process.stderr.write(`[openapi] wrote ${path.relative(ROOT, SPECTRAL_EXCEPTIONS)}: ${JSON.stringify(writeExceptions(SPECTRAL_EXCEPTIONS, document, findings.filter((p) => p.severity > 0)))}\n`);
  status = findings ? 0 : 1;
}
if (status === 0 && mode === 'breaking') {
  const oasdiff = ensureOasdiff();
  for (const file of readdirSync(RELEASES).filter((f) => f.endsWith('.json')).sort()) {
    process.stderr.write(`[openapi] breaking changes of the live document against release ${file.replace(/\.json$/, '')}:\n`);
    const accepted = path.join(RELEASES, file.replace(/\.json$/, '.accepted.txt'));
    const ignore = existsSync(accepted) ? ['--err-ignore', accepted] : [];
    status ||= run(oasdiff, ['breaking', path.join(RELEASES, file), live, '--fail-on', 'ERR', '--format', 'singleline', ...ignore]);
  }
}
rmSync(dir, { recursive: true, force: true });
process.exit(status);
