// ESLint flat config: type-aware rules for TypeScript through the TypeScript project service,
// Prettier owns formatting (eslint-config-prettier switches the conflicting rules off).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', '.tools/**', 'infra/local/.run/**'],
  },
  js.configs.recommended,
  {
    files: ['**/*.ts'],
    extends: [...tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'], defaultProject: 'tsconfig.base.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'List named exports instead of `export *`.' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@signalbox/*/src/*'], message: "Import through the package's exports, not its src/." },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      // Tests assert on shapes they just built; non-null assertions keep them readable.
      '@typescript-eslint/no-non-null-assertion': 'off',
      // vitest's asymmetric matchers (expect.stringContaining…) are typed `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // The trace viewer's browser modules (served as they are; type-checked by their own tsconfig).
    files: ['services/api/src/viewer/client/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      // Trace data is shown as text, never parsed as markup (a payload may hold <img onerror=…>).
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML', 'insertAdjacentHTML', 'srcdoc'].map((property) => ({
          property,
          message: 'Insert trace data as text (dom.js h/s/replace), never as markup.',
        })),
        { object: 'document', property: 'write', message: 'Build elements with dom.js.' },
      ],
    },
  },
  prettier,
);
