// Lint (npm run lint, part of npm test): typescript-eslint's recommended rules with type information over the
// TypeScript sources, and the rules that catch what costs money in this codebase: a floating promise is how an order's
// outcome gets lost, a promise where a callback expects a value is one nobody awaits, a switch over a union that misses
// a member forgets a case. The few plain JavaScript files (bin/, the worker entry shims, configs) are not linted.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // `.tmp-*` folders are tests' scratch inside the tree (new-strategy's generated strategies), made and removed while
  // `npm test` lints beside the suite (bin/test.js)
  { ignores: ['node_modules/**', 'dist/**', 'var/**', 'coverage/**', '.bench-cache/**', '**/.tmp-*/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // `_name` marks a parameter or a destructured property that is deliberately unused (e.g. dropped from a rest)
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // rethrowing what a catch or a failed task gave (unknown) is not throwing a non-error
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // Tests: fakes implement the async interfaces they stand in for without awaiting anything, and read the JSON the
    // CLI and the venue print (any) to compare it with what they expect.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
    },
  },
);
