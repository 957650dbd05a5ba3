// The Spectral findings (`oas` and OWASP rulesets) kept on purpose, one by one: `api/openapi/spectral-exceptions.txt`
// lists each as `<rule> <JSON pointer>` under the reason that keeps it. `npm run lint` fails on a
// finding the list does not name (fix it, or place it deliberately) and on a listed one that is gone
// (the list stays true). `node scripts/openapi-check.mjs spectral-exceptions` rewrites the list from
// the live document, placing each finding by the rules below; one they cannot place goes under
// UNREVIEWED, which lint refuses until someone fixes it or gives it a reason here.
import { readFileSync, writeFileSync } from 'node:fs';

const UNREVIEWED = 'UNREVIEWED';

/** Reasons by id; the id is what a heading of the list names. */
const REASONS = {
  output: 'What the server writes (responses, response headers, webhook payloads we send): the limit rules aim at resource '
    + 'exhaustion by requests, and a response string, integer or list is as long as the data it reports (names, codes, ids, '
    + 'counts, pages bounded by `limit`). Every request string and array is bounded (test/unit/openapi-answers.test.ts).',
  'free-text': 'Free text a request carries (names, descriptions, reasons, e-mail addresses, street addresses, URLs, free-form filters), '
    + 'an opaque value (credentials, enrolment tokens, TOTP codes, idempotency keys, external ids, base64 payloads) or a CPF/CNPJ '
    + 'as typed (punctuation allowed; the handler checks its digits): no pattern or format to state beyond the maxLength it has.',
  'handler-checked-pattern': 'The decimal string\'s pattern is in the schema\'s `x-checked-by-handler` allOf member: the handler '
    + 'answers a malformed amount or rate with the contract\'s `decimal_parsing` at the field, which the validator must not preempt.',
  'handler-checked-max-items': 'The receivables list states maxItems 1000 in its `x-checked-by-handler` allOf member: the handler '
    + 'answers a longer list with the contract\'s code, 422 too_many_receivables_max_<N>, which the validator must not preempt.',
  exempt: 'Exempt from rate limiting by the contract (health, this document and its releases, the JWKS, the OAuth2 metadata): '
    + 'no rate-limit headers, never 429.',
  public: 'Public by the contract (health, the integration flow, this document and its releases, the JWKS, the OAuth2 metadata, '
    + 'login, enrolment): no token is asked, so no 401 and no security requirement.',
  'token-endpoint-basic': 'RFC 6749 §2.3.1 requires the token endpoint to accept the client in HTTP Basic (clientBasic is on that '
    + 'route only); OAuth2 client libraries send it by default.',
  'client-credentials-refresh': 'The client credentials grant has no refresh token (RFC 6749 §4.4.3); tokens live 15 minutes.',
  'staff-roles': 'userSession is what the staff login is, an HTTP bearer token from `POST /v1/auth/login` (JSON e-mail and password, '
    + 'no OAuth2 flow to claim); OAS 3.1 lets a requirement of a scheme other than OAuth2 list role names, and these are the staff '
    + 'roles\' `backoffice:*` scopes the token carries, described on the scheme. Spectral\'s oas3-operation-security-defined reads '
    + 'them as OAuth2 scopes the scheme does not declare.',
};

const OUTPUT_RULES = new Set(['owasp:api4:2023-string-limit', 'owasp:api4:2023-string-restricted', 'owasp:api4:2023-integer-limit',
  'owasp:api4:2023-integer-format', 'owasp:api4:2023-array-limit']);

const escapePointer = (key) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
export const findingKey = (finding) => `${finding.code} #/${finding.path.map(escapePointer).join('/')}`;

/** The component schemas a request can reach (parameters and bodies, through every $ref). */
function inputSchemas(document) {
  const names = new Set();
  const pending = [];
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item)) pending.push(operation?.parameters, operation?.requestBody);
  }
  pending.push(document.components?.parameters);
  while (pending.length > 0) {
    const node = pending.pop();
    if (node === null || typeof node !== 'object') continue;
    const ref = typeof node.$ref === 'string' ? /^#\/components\/schemas\/([^/]+)$/.exec(node.$ref)?.[1] : undefined;
    if (ref && !names.has(ref)) {
      names.add(ref);
      pending.push(document.components.schemas[ref]);
    }
    pending.push(...Object.values(node));
  }
  return names;
}

const at = (document, path) => path.reduce((node, key) => node?.[key], document);

/** Whether `schema` (or the one its $ref names) states `keyword` in an `x-checked-by-handler` allOf member. */
function handlerChecked(document, schema, keyword) {
  const target = typeof schema?.$ref === 'string' ? at(document, schema.$ref.slice(2).split('/')) : schema;
  return (target?.allOf ?? []).some((member) => member['x-checked-by-handler'] && member[keyword] !== undefined);
}

function reasonFor(document, inputs, { code, path }) {
  const [section, a, b] = path;
  const operation = section === 'paths' ? at(document, path.slice(0, 3)) : undefined;
  const input = (section === 'paths' && (path[3] === 'parameters' || path[3] === 'requestBody'))
    || (section === 'components' && (a === 'parameters' || (a === 'schemas' && inputs.has(b))));
  const output = section === 'webhooks' || (section === 'paths' && path[3] === 'responses' && path.length > 5)
    || (section === 'components' && (a === 'headers' || (a === 'schemas' && !inputs.has(b))));
  if (OUTPUT_RULES.has(code) && output) return 'output';
  if (code === 'owasp:api4:2023-string-restricted' && input) return handlerChecked(document, at(document, path), 'pattern') ? 'handler-checked-pattern' : 'free-text';
  if (code === 'owasp:api4:2023-array-limit' && input) {
    if (handlerChecked(document, at(document, path), 'maxItems')) return 'handler-checked-max-items';
  }
  const isPublic = Array.isArray(operation?.security) && (operation.security.length === 0 || operation.security.some((requirement) => Object.keys(requirement).length === 0));
  if ((code === 'owasp:api4:2023-rate-limit' || code === 'owasp:api4:2023-rate-limit-responses-429') && operation?.['x-rate-limit'] === 'exempt') return 'exempt';
  if (['owasp:api2:2023-read-restricted', 'owasp:api2:2023-write-restricted', 'owasp:api8:2023-define-error-responses-401'].includes(code) && isPublic) return 'public';
  if (code === 'owasp:api2:2023-no-http-basic' && a === 'securitySchemes' && b === 'clientBasic') return 'token-endpoint-basic';
  if (code === 'owasp:api2:2023-short-lived-access-tokens' && a === 'securitySchemes' && b === 'clientCredentials') return 'client-credentials-refresh';
  if (code === 'oas3-operation-security-defined' && path[3] === 'security' && path[5] === 'userSession') return 'staff-roles';
  return UNREVIEWED;
}

const HEADER = `# Spectral findings (\`oas\` and OWASP rulesets) kept on purpose, one per line as \`<rule> <JSON pointer>\`
# under the reason that keeps it. npm run lint fails on any finding not listed here and on a
# listed one that is gone. Rewrite with \`node scripts/openapi-check.mjs spectral-exceptions\`
# (scripts/lib/spectral-exceptions.mjs places each finding; one it cannot place is UNREVIEWED,
# which lint refuses) and review the diff.
`;

/** Writes the list of `findings` for `document`, grouped by reason. */
export function writeExceptions(file, document, findings) {
  const inputs = inputSchemas(document);
  const groups = new Map();
  for (const finding of findings) {
    const reason = reasonFor(document, inputs, finding);
    if (!groups.has(reason)) groups.set(reason, new Set());
    groups.get(reason).add(findingKey(finding));
  }
  const order = [...Object.keys(REASONS), UNREVIEWED].filter((reason) => groups.has(reason));
  const text = order.map((reason) => `\n## ${reason}: ${REASONS[reason] ?? 'no rule places this finding: fix it, or give it a reason in scripts/lib/spectral-exceptions.mjs'}\n${[...groups.get(reason)].sort().join('\n')}\n`).join('');
  writeFileSync(file, HEADER + text);
  return Object.fromEntries(order.map((reason) => [reason, groups.get(reason).size]));
}

/** The listed keys and the reasons they sit under. */
export function readExceptions(file) {
  const listed = new Map();
  let reason;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('## ')) reason = line.slice(3).split(':')[0];
    else if (line.trim() && !line.startsWith('#')) listed.set(line.trim(), reason);
  }
  return listed;
}

/** Findings the list does not name, listed keys no longer found, and listed keys still UNREVIEWED. */
export function compareWithExceptions(findings, listed) {
  const found = new Set(findings.map(findingKey));
  return {
    unlisted: [...found].filter((key) => !listed.has(key)).sort(),
    gone: [...listed.keys()].filter((key) => !found.has(key)).sort(),
    unreviewed: [...listed].filter(([, reason]) => reason === UNREVIEWED || !(reason in REASONS)).map(([key]) => key).sort(),
    kept: found.size,
  };
}
