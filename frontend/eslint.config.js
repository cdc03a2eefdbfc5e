/**
 * ESLint (flat config): JavaScript and typescript-eslint's type-checked rules, the rules of
 * hooks, and the import boundaries of the layout in README.md:
 * - a feature imports another feature only through its `index.ts`;
 * - the app shell imports a feature through its `index.ts`, and its `screens.ts` only lazily
 *   (a static import would pull the screens into the first chunk);
 * - shared code (`components`, `lib`, `i18n`, and `api`: the client generated from the server's
 *   OpenAPI document) imports no feature and not the app shell, but for the language files
 *   (`src/i18n/en.ts`, `ru.ts`), which merge each feature's copy (`messages.en.ts`,
 *   `messages.ru.ts`, and a part's own `<part>-messages.en.ts` / `.ru.ts` beside them, which
 *   import nothing).
 * That no two features import each other (nor round a longer circle) is checked by
 * `scripts/feature-cycles.test.mjs`, run by `npm test`.
 */
import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // The generated client (src/api/generated, `npm run gen:api`) is checked by tsc, not linted.
  { ignores: ['dist', 'coverage', 'playwright-report', 'test-results', 'node_modules', 'src/api/generated'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': [
        { type: 'app', pattern: 'src/app', partialMatch: false },
        { type: 'feature', pattern: 'src/features/*', partialMatch: false, capture: ['feature'] },
        { type: 'shared', pattern: ['src/components', 'src/lib', 'src/i18n', 'src/api'], partialMatch: false },
        { type: 'test-support', pattern: 'src/test', partialMatch: false },
      ],
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            {
              from: { element: { type: 'app' } },
              allow: {
                to: [
                  { element: { types: { anyOf: ['app', 'shared'] } } },
                  { element: { type: 'feature', fileInternalPath: ['index.ts', 'screens.ts'] } },
                ],
              },
            },
            {
              from: { element: { type: 'feature' } },
              allow: {
                to: [{ element: { type: 'shared' } }, { element: { type: 'feature', fileInternalPath: 'index.ts' } }],
              },
            },
            { from: { element: { type: 'shared' } }, allow: { to: { element: { type: 'shared' } } } },
            // The language files merge the features' copy.
            {
              from: { file: { path: 'src/i18n/{en,ru}.ts' } },
              allow: { to: { element: { type: 'feature', fileInternalPath: ['messages.en.ts', 'messages.ru.ts', '*-messages.en.ts', '*-messages.ru.ts'] } } },
            },
            { from: { element: { type: 'test-support' } }, allow: { to: { element: { type: '*' } } } },
            // Tests use the shared test helpers wherever they are.
            { from: { file: { path: '**/*.test.{ts,tsx}' } }, allow: { to: { element: { type: 'test-support' } } } },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@/features/*/screens', '**/features/*/screens'],
              message: 'Screens load lazily: import() them through lazyScreen in src/app/routes.tsx.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    // CommonJS files (Jest's environment) load modules with require().
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
