#!/usr/bin/env node
// Contract checks on the live OpenAPI document:
//   lint      Redocly CLI, `recommended` ruleset plus redocly.yaml, and Spectral with the OWASP API
//             Security ruleset (.spectral.yaml) (part of `npm run lint`)
//   breaking  oasdiff against every frozen release in api/openapi/releases/ (fails on ERR level);
//             `<version>.accepted.txt` beside a release lists the ERR findings accepted, each with
//             its reason on a `#` line above it
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureOasdiff } from './lib/contract-tools.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RELEASES = path.join(ROOT, 'api', 'openapi', 'releases');
const bin = (name) => path.join(ROOT, 'node_modules', '.bin', name);

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

/**
 * Spectral with the OWASP ruleset: fails on any error; the warnings kept on purpose (.spectral.yaml
 * says why) are counted by rule, not listed one by one.
 */
function spectral(file) {
  const result = spawnSync(bin('spectral'), ['lint', '--ruleset', path.join(ROOT, '.spectral.yaml'), '--format', 'json', '--quiet', file], {
    cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  let problems;
  try {
    problems = JSON.parse(result.stdout || '[]');
  } catch {
    process.stderr.write(`${result.stdout}${result.stderr}`);
    return 1;
  }
  const errors = problems.filter((p) => p.severity === 0);
  for (const problem of errors) process.stderr.write(`error   ${problem.code.padEnd(40)} ${problem.path.join('/')}  ${problem.message}\n`);
  const kept = {};
  for (const problem of problems.filter((p) => p.severity > 0)) kept[problem.code] = (kept[problem.code] ?? 0) + 1;
  const keptText = Object.entries(kept).map(([code, count]) => `${code} ${count}`).join(', ');
  process.stderr.write(`[openapi] Spectral OWASP (.spectral.yaml): ${errors.length} errors, ${problems.length - errors.length} warnings kept on purpose${keptText ? ` (${keptText})` : ''}\n`);
  return errors.length === 0 ? 0 : 1;
}

const mode = process.argv[2];
if (mode !== 'lint' && mode !== 'breaking') {
  process.stderr.write('usage: node scripts/openapi-check.mjs lint|breaking\n');
  process.exit(2);
}
const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
const live = path.join(dir, 'openapi.json');
let status = run(bin('tsx'), ['scripts/openapi-document.ts', live]);
if (status === 0 && mode === 'lint') status = lint(live) || spectral(live);
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
