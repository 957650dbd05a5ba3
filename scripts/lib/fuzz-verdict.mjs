// The one line CI prints for a fuzz run, read from schemathesis' JSON run report (its own console
// report, which ends in a pytest-style "=== N warnings in Xs ===" line, goes to a file instead).

/**
 * `{ clean, line }`: clean when schemathesis finished on its own with exit code 0, tested every
 * selected operation, and reported no failure, error or warning. The line avoids the shape of a
 * test runner's tally ("N passed, N failed"), which only the suite prints.
 */
export function fuzzVerdict(report, { reportFile }) {
  const operations = report.operations ?? { selected: 0, tested: 0 };
  const failures = report.failures ?? [];
  const errors = report.errors ?? [];
  const warnings = Object.entries(report.warnings ?? {}).filter(([, labels]) => labels.length > 0);
  const problems = [
    ...failures.map((f) => `${f.title} (${f.count}× in ${f.operations.join(', ')})`),
    ...errors.map((e) => `error: ${e.title} (${e.count}×)`),
    ...warnings.map(([kind, labels]) => `warning ${kind}: ${labels.join(', ')}`),
    ...(operations.tested < operations.selected ? [`only ${operations.tested} of ${operations.selected} operations tested`] : []),
    ...(report.complete ? [] : [`stopped early (${report.stop_reason})`]),
  ];
  const clean = report.exit_code === 0 && problems.length === 0;
  const reach = `${operations.tested}/${operations.selected} operations, ${report.test_cases?.generated ?? 0} generated cases, seed ${report.seed}`;
  const line = clean
    ? `[fuzz] verdict: clean (schemathesis ${report.schemathesis_version}: ${reach}; no failure, error or warning; report ${reportFile})`
    : `[fuzz] verdict: NOT CLEAN (schemathesis ${report.schemathesis_version}: ${reach}; ${problems.join('; ')}; report ${reportFile})`;
  return { clean, line };
}
