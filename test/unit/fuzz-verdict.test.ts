import { expect } from 'chai';
import { fuzzVerdict } from '../../scripts/lib/fuzz-verdict.mjs';

/** The shape of schemathesis' `--report json` run report (4.32), with what a clean run holds. */
const cleanReport = () => ({
  schemathesis_version: '4.32.5', seed: '147456663646176891851616971268107357756', complete: true, stop_reason: 'completed', exit_code: 0,
  operations: { total: 70, selected: 70, tested: 70, errored: 0, skipped: 0 },
  test_cases: { generated: 4210, with_failures: 0, unique_failures: 0, without_checks: 0, errored: 0 },
  failures: [] as { title: string; count: number; operations: string[] }[],
  errors: [] as { title: string; count: number }[],
  warnings: { missing_test_data: [] as string[], validation_mismatch: [] as string[], missing_auth: [] as string[] },
});
const TALLY = /\d+ (passed|passing|failed|failing|skipped|warnings?) in /;

/** Issue #24: CI prints one line for the fuzz run, and it never reads as a test runner's summary. */
describe('the fuzz verdict line', () => {
  it('is clean only when every selected operation was tested with no failure, error or warning', () => {
    const verdict = fuzzVerdict(cleanReport(), { reportFile: '.data/fuzz-report-1.txt' });
    expect(verdict).to.deep.equal({
      passed: true,
      line: '[fuzz] verdict: clean (schemathesis 4.32.5: 70/70 operations, 4210 generated cases, seed 147456663646176891851616971268107357756; no failure, error or warning; report .data/fuzz-report-1.txt)',
    });
    expect(verdict.line).to.not.match(TALLY);
  });

  it('fails on a warning, naming its kind and operations, as a run that only ever got 404s has', () => {
    const report = cleanReport();
    report.warnings.missing_test_data = ['GET /v1/titles/{id}', 'POST /v1/titles/{id}/write-off'];
    const verdict = fuzzVerdict(report, { reportFile: 'r.txt' });
    expect(verdict.passed).to.equal(false);
    expect(verdict.line).to.match(/^\[fuzz\] verdict: NOT CLEAN \(/).and.include('warning missing_test_data: GET /v1/titles/{id}, POST /v1/titles/{id}/write-off');
    expect(verdict.line).to.not.match(TALLY);
  });

  it('names failures, errors, operations left untested and a run that stopped early', () => {
    const report = { ...cleanReport(), exit_code: 1, complete: false, stop_reason: 'interrupted' };
    report.failures.push({ title: 'Response violates schema', count: 3, operations: ['POST /v1/webhooks'] });
    report.errors.push({ title: 'Network Error', count: 1 });
    report.operations = { ...report.operations, tested: 68 };
    const { passed, line } = fuzzVerdict(report, { reportFile: 'r.txt' });
    expect(passed).to.equal(false);
    expect(line).to.match(/^\[fuzz\] verdict: NOT CLEAN \(/);
    for (const part of ['Response violates schema (3× in POST /v1/webhooks)', 'error: Network Error (1×)', 'only 68 of 70 operations tested', 'stopped early (interrupted)']) {
      expect(line).to.include(part);
    }
    expect(line).to.not.match(TALLY);
  });

  it('is not clean when schemathesis itself exits non-zero', () => {
    expect(fuzzVerdict({ ...cleanReport(), exit_code: 1 }, { reportFile: 'r.txt' }).passed).to.equal(false);
  });
});
