import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

const API = path.resolve(__dirname, '..', '..', 'api');
const SPECIFIER = /(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g;

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourcesUnder(full);
    return name.endsWith('.ts') && !name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolved(from: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(from), specifier);
  return [base, `${base}.ts`, path.join(base, 'index.ts')].find((candidate) => candidate.endsWith('.ts') && existsSync(candidate)) ?? null;
}

/** Every api/ file and the api/ files it imports (`import type` included: a circle of types is still one module needing another). */
function importGraph(): Map<string, string[]> {
  const files = sourcesUnder(API);
  return new Map(files.map((file) => [file, [...readFileSync(file, 'utf8').matchAll(SPECIFIER)]
    .map((match) => resolved(file, match[1]))
    .filter((target): target is string => target !== null && target.startsWith(`${API}${path.sep}`))]));
}

/** The strongly connected parts of more than one node (Tarjan): each is a circle. */
function circles<T>(graph: Map<T, readonly T[]>): T[][] {
  let counter = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const found: T[][] = [];
  const visit = (node: T): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: T[] = [];
    for (let top = stack.pop()!; ; top = stack.pop()!) {
      onStack.delete(top);
      part.push(top);
      if (top === node) break;
    }
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The section of an api/ file: its first folder (`operations`, `openapi`...); files at the top (app.ts, server.ts) are no section. */
const sectionOf = (file: string): string | null => {
  const parts = path.relative(API, file).split(path.sep);
  return parts.length > 1 ? parts[0] : null;
};

function sectionGraph(files: Map<string, string[]>): Map<string, string[]> {
  const sections = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = sectionOf(file);
    if (from === null) continue;
    if (!sections.has(from)) sections.set(from, new Set());
    for (const target of targets) {
      const to = sectionOf(target);
      if (to !== null && to !== from) sections.get(from)!.add(to);
    }
  }
  return new Map([...sections].map(([section, targets]) => [section, [...targets]]));
}

const relative = (files: string[]) => files.map((file) => path.relative(API, file));

describe('the import graph of api/', () => {
  const graph = importGraph();

  it('reads the imports it checks (the graph is not empty, and app.ts reaches the sections)', () => {
    expect(graph.size).to.be.above(100);
    expect(relative(graph.get(path.join(API, 'app.ts'))!)).to.include('operations/routes.ts');
  });

  it('has no import circle between files', () => {
    expect(circles(graph).map(relative)).to.deep.equal([]);
  });

  it('has no folder loop between sections: a section is imported by those above it, never by one it imports', () => {
    expect(circles(sectionGraph(graph))).to.deep.equal([]);
  });

  it('finds a loop and a circle where there is one (the check is not blind)', () => {
    expect(circles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).to.deep.equal([['a', 'b', 'c']]);
    const files = new Map([[path.join(API, 'x', 'one.ts'), [path.join(API, 'y', 'two.ts')]], [path.join(API, 'y', 'two.ts'), [path.join(API, 'x', 'three.ts')]]]);
    expect(circles(sectionGraph(files))).to.deep.equal([['x', 'y']]);
    expect(circles(files)).to.deep.equal([]);
  });
});
