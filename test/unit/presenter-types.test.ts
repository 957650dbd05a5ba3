import { expect } from 'chai';
import path from 'node:path';
import ts from 'typescript';

/**
 * Issue #25: a presenter is declared to return its response schema's type (generated from the
 * served document), so dropping a required field fails `tsc`. The real presenters are type-checked
 * as they are (no error), then as broken copies, each without the line of one required field, with
 * the project's own compiler options: each copy must fail with "Property … is missing" naming it.
 * One program per pass: a program costs seconds, whatever the number of files in it.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const config = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile).config, ts.sys, ROOT);
const host = ts.createCompilerHost(config.options);
const readSource = host.getSourceFile.bind(host);

/** Each presenter file, with the lines (one or more) of required fields in it: [lines, field]. */
const PROBES: Record<string, Array<[line: string, field: string]>> = {
  'api/operations/presenter.ts': [['    external_id: t.externalId,', 'external_id'], ['    display_number: op.displayNumber,', 'display_number']],
  'api/titles/presenter.ts': [['    title_id: result.titleId,', 'title_id']],
  'api/payables/presenter.ts': [['    origin: row.origin,', 'origin'], ['    payable_id: row.payableId,', 'payable_id'], [
    '    applied_to: lines.filter((line) => line.discountCreditId === row.id)\n      .map((line) => ({ payable_id: line.payableId, amount_brl: line.amount, remaining: line.remainingAfter })),', 'applied_to',
  ]],
  'api/webhooks/presenter.ts': [['    event_types: s.eventTypes,', 'event_types'], ['    webhook_id: recovery.subscriptionId,', 'webhook_id'], ['    attempt_number: d.attemptNumber,', 'attempt_number']],
  'api/assignors/presenter.ts': [['    disbursement_method: row.disbursementMethod,', 'disbursement_method']],
  'api/stock/presenter.ts': [['    pre_authorized: item.preAuthorized,', 'pre_authorized']],
  'domain/events.ts': [['    sequence: event.sequence,', 'sequence']],
  'api/backoffice/presenter.ts': [
    ['    temporal_web_url: page.temporalWebUrl,', 'temporal_web_url'], ['    email: a.email,', 'email'], ['    status: c.status,', 'status'],
    ['    amount: d.amount,', 'amount'], ['    remaining_after: p.remainingAfter,', 'remaining_after'], ['    actor_email: page.actorEmails.get(e.eventId) ?? null,', 'actor_email'],
    ['    webhook_id: d.webhookId,', 'webhook_id'],
  ],
  'api/test-clocks/routes.ts': [['    created_at: clock.createdAt.toISOString(), deletes_after: clock.deletesAfter.toISOString(),', 'created_at, deletes_after']],
};

/** Where a presenter's return type is checked, when not in its own file: domain/ may not import the document's types. */
const CHECKED_IN: Record<string, string> = { 'domain/events.ts': 'api/events/routes.ts' };
const checkedIn = (file: string) => CHECKED_IN[file] ?? file;

const sourceOf = (file: string) => ts.sys.readFile(path.join(ROOT, file))!;

/** `tsc`'s diagnostics where each of `texts` (file → its text) is checked, as "TS<code>: <message>", by file. */
function diagnosticsOf(texts: Record<string, string>): Record<string, string[]> {
  const byPath = new Map(Object.entries(texts).map(([file, text]) => [path.join(ROOT, file), text]));
  const getSourceFile: ts.CompilerHost['getSourceFile'] = (name, language, ...rest) => {
    const text = byPath.get(path.resolve(name));
    return text === undefined ? readSource(name, language, ...rest) : ts.createSourceFile(name, text, language);
  };
  const rootNames = Object.keys(texts).map((file) => path.join(ROOT, checkedIn(file)));
  const program = ts.createProgram({ rootNames, options: config.options, host: { ...host, getSourceFile } });
  return Object.fromEntries(Object.keys(texts).map((file) => [file, ts.getPreEmitDiagnostics(program, program.getSourceFile(path.join(ROOT, checkedIn(file))))
    .map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`)]));
}

describe('Presenters typed by the document (tsc)', function () {
  this.timeout(180_000);
  const files = Object.keys(PROBES);

  it('type-checks every probed presenter as it is', () => {
    const clean = diagnosticsOf(Object.fromEntries(files.map((file) => [file, sourceOf(file)])));
    for (const file of files) expect(clean[file], file).to.deep.equal([]);
  });

  it('fails tsc on each presenter that drops a required field, naming the field', () => {
    const broken = diagnosticsOf(Object.fromEntries(files.map((file) => {
      let text = sourceOf(file);
      for (const [line] of PROBES[file]) {
        expect(text.split(`\n${line}\n`), `"${line.trim()}" once in ${file}`).to.have.length(2);
        text = text.replace(`\n${line}\n`, '\n');
      }
      return [file, text];
    })));
    for (const file of files) {
      // A binding only the removed line used is reported unused too (TS6133): not what is probed. A
      // function assigned to a typed variable says the same within a TS2322; two fields are TS2739.
      const missing = broken[file].filter((d) => !d.startsWith('TS6133:'));
      const named = missing.map((d) => (/^TS(?:2741|2322): .*Property '([^']+)' is missing in type/s.exec(d)
        ?? /^TS2739: .* is missing the following properties from type .*: ([\w, ]+)$/s.exec(d) ?? [])[1] ?? d);
      expect(named, file).to.have.members(PROBES[file].map(([, field]) => field));
    }
  });
});
