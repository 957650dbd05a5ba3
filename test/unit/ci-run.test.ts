import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const CI = path.resolve('.ci', 'run');

/**
 * `.ci/run` in its dry mode: every command printed instead of run; `fail` names the one that fails. Its logs go to
 * a folder of its own, never over those of a real run whose suite this test is part of.
 */
function dryRun(fail?: string): { code: number | null; lines: string[] } {
  const logs = mkdtempSync(path.join(tmpdir(), 'ci-dry-'));
  try {
    const result = spawnSync('bash', [CI], { encoding: 'utf8', env: { ...process.env, CI_DRY_RUN: '1', CI_LOG_DIR: logs, ...(fail ? { CI_DRY_FAIL: fail } : {}) } });
    return { code: result.status, lines: `${result.stdout}${result.stderr}`.trimEnd().split('\n') };
  } finally {
    rmSync(logs, { recursive: true, force: true });
  }
}

/** The tools outside node_modules each step uses (the scripts' ensure* calls) and when they are first used. */
const NEEDS: [step: string, tools: string[]][] = [
  ['npm run openapi:breaking', ['oasdiff']],
  ['npm run fuzz', ['temporal', 'schemathesis']],
  ['npm run prism', ['temporal']],
  ['npm run test:model', ['test-server']],
  // The model test in the suite, the browser tests, and one of them Temporal Web's UI server.
  ['npm test', ['temporal', 'test-server', 'chromium', 'temporal-web']],
  ['npm run test:cluster -- --apps', ['temporal', 'temporal-server', 'jaeger']],
  ['npm run test:cluster -- test/api/webhooks.test.ts', ['temporal', 'temporal-server']],
  ['npm run chaos', ['temporal', 'temporal-server']],
];

/** Whether `line` starts with `prefix`, a step run in the background (`beside <name>: <command>`) read as its command. */
const startsStep = (line: string, prefix: string) => line.replace(/^\[ci:dry\] beside [\w-]+: /, '[ci:dry] ').startsWith(prefix);

describe('.ci/run: the order of its steps and the tools they wait for', () => {
  it('starts every tool\'s job before the steps, and runs each step only after the jobs of the tools it uses', () => {
    const { code, lines } = dryRun();
    expect(code, lines.join('\n')).to.equal(0);
    const index = (prefix: string) => {
      const at = lines.findIndex((line) => startsStep(line, prefix));
      expect(at, `no line starts with ${prefix}`).to.be.at.least(0);
      return at;
    };
    const firstStep = index('[ci:dry] npm run lint');
    const waitedFor = (tool: string) => lines.findIndex((line) => /^\[ci\] waiting for (.+) took \d+ s$/.exec(line)?.[1].split(' ').includes(tool));
    for (const [step, tools] of NEEDS) {
      for (const tool of tools) {
        expect(index(`[ci:dry] background ${tool}:`), `${tool} starts in the background`).to.be.below(tool === 'chromium' ? index('[ci:dry] npm run openapi:breaking') : firstStep);
        const waited = waitedFor(tool);
        expect(waited, `${step} waits for ${tool}`).to.be.at.least(0).and.below(index(`[ci:dry] ${step}`));
      }
    }
  });

  it('runs the checks on the dev server before the cluster\'s, the model test beside the cluster\'s tests at the lowest priority and done before the fault run, and ends the log on the suite\'s tally', () => {
    const { lines } = dryRun();
    const order = ['npm run lint', 'npm run test:rules', 'npm run openapi:breaking', 'npm run fuzz', 'npm run prism', 'npm test', 'npm run test:model', 'npm run test:cluster -- --apps', 'npm run test:cluster -- test/api', 'npm run chaos']
      .map((step) => lines.findIndex((line) => startsStep(line, `[ci:dry] ${step}`)));
    expect(order).to.not.include(-1);
    expect([...order].sort((a, b) => a - b)).to.deep.equal(order);
    expect(lines[order[6]]).to.equal('[ci:dry] beside model: npm run test:model');
    // Its own output, printed when the run waits for it before the fault run, shows it ran at the lowest priority.
    const waited = lines.indexOf('[ci] waiting for model took 0 s');
    expect(waited).to.be.above(order[8]).and.below(order[9]);
    expect(lines.slice(order[8], waited)).to.include('[ci:dry] nice -n 19 npm run test:model');
    // The suite's last line (its tally, in a real run) is printed again as the log's last line.
    expect(lines.at(-1)).to.equal('[ci:dry] npm test');
    expect(lines.at(-2)).to.match(/^\[ci\] the whole run took \d+ s; the suite's tally:$/);
  });

  it('fails the run where a step fails, and runs nothing after it', () => {
    const { code, lines } = dryRun('npm run prism');
    expect(code).to.equal(1);
    expect(lines.at(-1)).to.equal('[ci:dry] npm run prism');
    expect(lines.some((line) => line.includes('npm test') || line.includes('test:model'))).to.equal(false);
  });

  it('a failing model test fails the run once the cluster\'s tests beside it are done, with its own output, before the fault run', () => {
    const { code, lines } = dryRun('npm run test:model');
    expect(code).to.equal(1);
    expect(lines.slice(-2)).to.deep.equal(['[ci:dry] nice -n 19 npm run test:model', '[ci] running model failed (exit 1)']);
    expect(lines.some((line) => line.startsWith('[ci:dry] npm run test:cluster -- test/api'))).to.equal(true);
    expect(lines.some((line) => line.includes('npm run chaos'))).to.equal(false);
  });

  it('a failing suite ends the run on its own last line, before the cluster\'s steps', () => {
    const { code, lines } = dryRun('npm test');
    expect(code).to.equal(1);
    expect(lines.at(-1)).to.equal('[ci:dry] npm test');
    expect(lines.some((line) => line.includes('test:cluster'))).to.equal(false);
  });

  it('a tool that failed to install fails the run at the step that waits for it, with the tool\'s own output', () => {
    const { code, lines } = dryRun('install-tools.mjs jaeger');
    expect(code).to.equal(1);
    expect(lines.slice(-2)).to.deep.equal(['[ci:dry] nice -n 19 ionice -c 3 node_modules/.bin/node scripts/install-tools.mjs jaeger', '[ci] installing jaeger failed (exit 1)']);
    // Everything that does not need Jaeger ran before; nothing that does.
    expect(lines).to.include('[ci:dry] npm test');
    expect(lines.some((line) => line.includes('test:cluster'))).to.equal(false);
  });
});
