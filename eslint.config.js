// ESLint flat config: typescript-eslint plus the import boundaries of STYLE.md
// (bulletproof-react's no-restricted-paths / no-cycle, server's routes -> service -> repository).
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/data/**', '**/migrations/**', 'e2e/screenshots/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // contract depends on nothing of ours.
    files: ['packages/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@coffer/server*', '@coffer/web*', '**/apps/**'] }],
    },
  },
  {
    // Web never imports server source; features never import other features (move shared code down).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@coffer/server*', '**/apps/server/**'] }],
    },
  },
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/features/**', '**/app/**'] }],
    },
  },
  {
    // A module may call another module's service, never its repository.
    files: ['apps/server/src/modules/**/*.routes.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/*.repository', '**/db/schema/**'] }],
    },
  },
  {
    files: ['apps/server/src/providers/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/modules/**'] }],
    },
  },
);
