// ESLint (typescript-eslint) for grue. Formatting is Prettier's job (.prettierrc.json); these rules
// catch what the compiler does not: promises left floating, and in workflow code, anything that
// would break Temporal's deterministic replay (Node built-ins, I/O, the clock and randomness of
// the host), as the Temporal TypeScript samples lint it.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((name) => `node:${name}`)];

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'coverage/', 'scratch/', 'docs/reports/', 'game_files/', '**/*.js', '**/*.cjs', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/no-require-imports': 'off',
    },
  },
  {
    // Workflow code runs in Temporal's deterministic sandbox and is replayed from history.
    files: ['src/workflows/**/*.ts'],
    rules: {
      // Type-only imports are erased: a workflow may name the activities' types (proxyActivities<Activities>).
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({
            name,
            message: 'Workflow code is replayed deterministically: no Node built-ins (do I/O in an activity).',
          })),
          patterns: [
            {
              group: ['**/activities', '**/activities/*'],
              allowTypeImports: true,
              message: 'Workflows call activities through proxyActivities, never directly.',
            },
            {
              group: ['**/engine', '**/engine/*', '**/llm', '**/llm/*', '**/temporal/*', '**/cli/*'],
              allowTypeImports: true,
              message: 'Workflow code may not load the engine, LLM providers, Temporal clients or the CLI.',
            },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'Workflow code may not read the environment.' }],
    },
  },
);
