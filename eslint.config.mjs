import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

/**
 * The floors (docs/architecture.md), from the bottom: domain < platform < db < activities and
 * providers < workflows' types; api and worker on top; sandbox beside them on platform and domain. Each folder lists the folders it must never import, matched at any
 * depth (`../../db/x` as well as `../db/x`). `typesOnly` folders may be imported with `import type`.
 */
const FLOORS = {
  domain: { never: ['platform', 'db', 'providers', 'activities', 'workflows', 'api', 'worker', 'sandbox'] },
  platform: { never: ['db', 'providers', 'activities', 'workflows', 'api', 'worker', 'sandbox'] },
  db: { never: ['providers', 'activities', 'workflows', 'api', 'worker', 'sandbox'] },
  providers: { never: ['db', 'activities', 'workflows', 'api', 'worker', 'sandbox'] },
  activities: { never: ['workflows', 'api', 'worker', 'sandbox'] },
  workflows: { never: ['platform', 'db', 'api', 'worker', 'sandbox'], typesOnly: ['activities', 'providers'] },
  api: { never: ['worker', 'sandbox'] },
  worker: { never: ['api', 'sandbox'] },
  sandbox: { never: ['db', 'providers', 'activities', 'workflows', 'api', 'worker'] },
  // The integrators' CLI is a client of the public API: the shared vocabulary of domain/ and nothing of the service.
  cli: { never: ['platform', 'db', 'providers', 'activities', 'workflows', 'api', 'worker', 'sandbox'] },
};

/** domain/ does no I/O: besides itself it may import only these pure libraries. */
const DOMAIN_LIBRARIES = ['decimal.js', 'ipaddr.js', 'uuid', 'node:crypto', '@temporalio/common'];

const floorPatterns = (layer) => [
  ...FLOORS[layer].never.map((folder) => ({ group: [`**/${folder}/**`], message: `${layer}/ must not import ${folder}/ (the floors: docs/architecture.md).` })),
  ...(FLOORS[layer].typesOnly ?? []).map((folder) => ({ group: [`**/${folder}/**`], allowTypeImports: true, message: `${layer}/ may import only types from ${folder}/ (docs/architecture.md).` })),
];

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const domainOnlyPure = {
  regex: `^(?![./])(?!(${DOMAIN_LIBRARIES.map(escape).join('|')})$)`,
  message: 'domain/ does no I/O: import only domain/ and the pure libraries listed in eslint.config.mjs.',
};

export default tseslint.config(
  { ignores: ['node_modules/**', '.data/**', '.tools/**', 'dist/**', 'scripts/**', 'eslint.config.mjs'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read arbitrary JSON bodies.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Workflow code is replayed by Temporal: it must stay deterministic and never drop a promise.
    files: ['workflows/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      'no-restricted-imports': ['error', { paths: nodeBuiltins, patterns: floorPatterns('workflows') }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
  { files: ['domain/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [...floorPatterns('domain'), domainOnlyPure] }] } },
  ...['platform', 'db', 'providers', 'activities', 'api', 'worker', 'sandbox', 'cli'].map((layer) => ({
    files: [`${layer}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: floorPatterns(layer) }] },
  })),
);
