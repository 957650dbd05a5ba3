import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runInNewContext } from 'node:vm';

const CONSOLE = path.join(__dirname, '..', '..', 'api', 'web', 'backoffice');

/** The catalogue the browser loads (an ES module of one object literal), evaluated on its own. */
function catalogue(): Record<string, string> {
  const source = readFileSync(path.join(CONSOLE, 'messages-pt-br.js'), 'utf8').replace('export const PT_BR =', 'catalogue.PT_BR =');
  const sandbox = { catalogue: {} as { PT_BR?: Record<string, string> } };
  runInNewContext(source, sandbox);
  return sandbox.catalogue.PT_BR!;
}

/** Every message the console shows: `t('…')` in its scripts, the refusals' words, `data-t` in the page. */
function messagesInSources(): Set<string> {
  const found = new Set<string>();
  const unquote = (text: string) => text.replace(/\\'/g, "'");
  for (const file of readdirSync(CONSOLE).filter((name) => name.endsWith('.js') && name !== 'messages-pt-br.js')) {
    const source = readFileSync(path.join(CONSOLE, file), 'utf8');
    for (const match of source.matchAll(/\bt\(\s*'((?:[^'\\]|\\.)*)'/g)) found.add(unquote(match[1]));
    if (file === 'refusals.js') for (const match of source.matchAll(/^\s+\w+: '((?:[^'\\]|\\.)*)',$/gm)) found.add(unquote(match[1]));
  }
  for (const match of readFileSync(path.join(CONSOLE, 'index.html'), 'utf8').matchAll(/data-t="([^"]+)"/g)) found.add(match[1]);
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('the console\'s pt-BR message catalogue (issue #29)', () => {
  it('translates every message the console shows, with the same placeholders', () => {
    const pt = catalogue();
    const messages = messagesInSources();
    expect(messages.size).to.be.greaterThan(200);
    expect([...messages].filter((text) => !(text in pt)), 'messages without a pt-BR entry').to.deep.equal([]);
    expect([...messages].filter((text) => placeholders(text).join() !== placeholders(pt[text]).join()), 'placeholders differ').to.deep.equal([]);
  });

  it('keeps no entry that no page shows any more', () => {
    const messages = messagesInSources();
    expect(Object.keys(catalogue()).filter((text) => !messages.has(text))).to.deep.equal([]);
  });
});
