import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPTS = path.join(__dirname, '..', '..', 'scripts');

/**
 * `npm run dev` on a fresh clone: the entry must install dependencies before anything imports
 * them, and then run on the Node.js the install brought. A copy of the entry runs in a folder
 * without node_modules; `npm` is a stand-in that records the call and installs a package the
 * stand-in stack imports statically, and a node of its own (a link to this one under another path).
 */
describe('npm run dev entry on a clone without node_modules', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dev-entry-'));
    mkdirSync(path.join(dir, 'scripts', 'lib'), { recursive: true });
    mkdirSync(path.join(dir, 'bin'));
    copyFileSync(path.join(SCRIPTS, 'dev.mjs'), path.join(dir, 'scripts', 'dev.mjs'));
    for (const lib of ['ensure-dependencies.mjs', 'supported-node.mjs']) copyFileSync(path.join(SCRIPTS, 'lib', lib), path.join(dir, 'scripts', 'lib', lib));
    writeFileSync(path.join(dir, 'scripts', 'lib', 'dev.mjs'),
      "import { mark } from 'stand-in-dependency';\nmark('stack loaded');\n");
    const fixture = path.join(dir, 'fixture', 'stand-in-dependency');
    mkdirSync(fixture, { recursive: true });
    writeFileSync(path.join(fixture, 'package.json'), JSON.stringify({ name: 'stand-in-dependency', type: 'module', exports: './index.js' }));
    writeFileSync(path.join(fixture, 'index.js'),
      "import { appendFileSync } from 'node:fs';\nimport path from 'node:path';\n" +
      "export const mark = (message) => appendFileSync('order.log', `${message} by ${path.relative(process.cwd(), process.execPath)}\\n`);\n");
    const npm = path.join(dir, 'bin', 'npm');
    writeFileSync(npm, [
      '#!/bin/sh',
      'echo "npm $*" >> order.log',
      'mkdir -p node_modules/.bin && cp -r fixture/stand-in-dependency node_modules/ && echo "{}" > node_modules/.package-lock.json',
      `ln "${process.execPath}" node_modules/.bin/node 2>/dev/null || cp "${process.execPath}" node_modules/.bin/node`,
      '',
    ].join('\n'));
    chmodSync(npm, 0o755);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const run = () => spawnSync(process.execPath, ['scripts/dev.mjs'], {
    cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: `${path.join(dir, 'bin')}${path.delimiter}${process.env.PATH}` },
  });

  it('runs npm install first, then loads the stack that imports the installed packages, on the node the install brought', () => {
    const result = run();
    expect(result.status, result.stderr).to.equal(0);
    expect(readFileSync(path.join(dir, 'order.log'), 'utf8').trim().split('\n')).to.deep.equal(['npm install --no-audit --no-fund', 'stack loaded by node_modules/.bin/node']);
  });

  it('does not install again once node_modules is there', () => {
    expect(run().status).to.equal(0);
    const second = run();
    expect(second.status, second.stderr).to.equal(0);
    expect(readFileSync(path.join(dir, 'order.log'), 'utf8').trim().split('\n')).to.deep.equal(
      ['npm install --no-audit --no-fund', 'stack loaded by node_modules/.bin/node', 'stack loaded by node_modules/.bin/node']);
  });
});
