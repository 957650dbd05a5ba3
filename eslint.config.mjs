import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

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
      'no-restricted-imports': ['error', { paths: nodeBuiltins, patterns: ['../activities/*', '../db/*', '../api/*'].map((group) => ({ group: [group], allowTypeImports: true })) }],
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },
);
