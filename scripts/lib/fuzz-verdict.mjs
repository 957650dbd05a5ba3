// The one line CI prints for a fuzz run, read from schemathesis' JSON run report (its own console
// report, which ends in a pytest-style "=== N warnings in Xs ===" line, goes to a file instead).

/**
 * `{ passed, line }`. Passed: schemathesis finished on its own with exit code 0, tested every
 * selected operation and found no failure, no error and no warning. The line says `clean` then,
 * `NOT CLEAN` naming what failed otherwise. It avoids the shape of a test runner's tally
 * ("N passed, N failed"), which only the suite prints.
 */
export function fuzzVerdict(report, { reportFile }) {
  const operations = report.operations ?? { selected: 0, tested: 0 };
  const failures = report.failures ?? [];
  const errors = report.errors ?? [];
  const warnings = Object.entries(report.warnings ?? {}).filter(([, labels]) => labels.length > 0)
    .map(([kind, labels]) => `warning ${kind}: ${labels.join(', ')}`);
  const problems = [
    ...failures.map((f) => `${f.title} (${f.count}× in ${f.operations.join(', ')})`),
    ...errors.map((e) => `error: ${e.title} (${e.count}×)`),
    ...(operations.tested < operations.selected ? [`only ${operations.tested} of ${operations.selected} operations tested`] : []),
    ...(report.complete ? [] : [`stopped early (${report.stop_reason})`]),
    ...warnings,
  ];
  const passed = report.exit_code === 0 && problems.length === 0;
  const reach = `${operations.tested}/${operations.selected} operations, ${report.test_cases?.generated ?? 0} generated cases, seed ${report.seed}`;
  const head = `[fuzz] verdict: ${passed ? 'clean' : 'NOT CLEAN'} (schemathesis ${report.schemathesis_version}: ${reach}`;
  return { passed, line: `${head}; ${problems.length > 0 ? problems.join('; ') : 'no failure, error or warning'}; report ${reportFile})` };
}
