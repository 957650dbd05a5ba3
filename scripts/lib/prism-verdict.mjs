// The one line `npm run prism` prints, read from the exchanges it recorded through Prism's proxy.
import { PRISM_VERSION } from './contract-tools.mjs';

const inResponse = (violation) => violation.location?.[0] === 'response';

/** The verdict: which answers and which valid requests broke the document, and what was not reached. */
export function prismVerdict(exchanges, operations) {
  const responseViolations = exchanges.filter((e) => e.violations.some(inResponse));
  const requestViolations = exchanges.filter((e) => !e.invalid && e.violations.some((v) => !inResponse(v)));
  // A request broken on purpose that Prism lets through means Prism did not check that operation.
  const unnoticed = exchanges.filter((e) => e.invalid && !e.violations.some((v) => !inResponse(v)));
  const reached = new Set(exchanges.map((e) => e.operation));
  const unreached = operations.map((op) => op.key).filter((key) => !reached.has(key));
  const undocumented = [...reached].filter((key) => key.endsWith('(undocumented)'));
  const passed = responseViolations.length + requestViolations.length + unnoticed.length + unreached.length + undocumented.length === 0;
  const line = `[prism] ${passed ? 'passed' : 'FAILED'}: ${exchanges.length} requests through Prism ${PRISM_VERSION}'s validation proxy reached `
    + `${operations.length - unreached.length} of ${operations.length} operations (${exchanges.filter((e) => e.status >= 400).length} answered an error); `
    + `${responseViolations.length} answers and ${requestViolations.length} valid requests broke the document`
    + `; Prism reported ${exchanges.filter((e) => e.invalid).length - unnoticed.length} of the ${exchanges.filter((e) => e.invalid).length} requests invalid on purpose`
    + `${unnoticed.length ? ` (not: ${unnoticed.map((e) => `${e.method} ${e.route.split('?')[0]}`).join(', ')})` : ''}`
    + `${unreached.length ? `; not reached: ${unreached.join(', ')}` : ''}${undocumented.length ? `; undocumented: ${undocumented.join(', ')}` : ''}`;
  return { passed, line, responseViolations, requestViolations };
}
