// ESLint (flat config): typescript-eslint's recommended rules over every source, test, bench and script,
// plus the rules this repository keeps by itself (scripts/eslint/layers.mjs): the layers by runtime and no
// import cycles (errors), and files under 400 lines in src/ and webview/ (a warning: split a file by what its
// parts are for before it grows past it). Not type-aware: recommendedTypeChecked costs minutes on two cores
// for little the strict tsc settings do not already catch.
//   npx eslint .        (scripts/test.sh runs it as the `lint` stage)
import tseslint from 'typescript-eslint';
import layers from './scripts/eslint/layers.mjs';

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'vscode-host/**', 'test-results/**', '.vscode-test/**', 'test/**/fixtures/**', 'test/conformance/**', 'test/browser/fake-vscode.js'],
  },
  {
    files: ['**/*.ts', '**/*.mjs'],
    extends: [tseslint.configs.recommended],
    rules: {
      // A leading underscore names what is deliberately unused (a destructured-away field, an interface's argument).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // A `let` read by a closure before its one assignment (a late-bound owner) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // `a && b()` and `c ? d() : e()` as statements are the idiom in a few hot loops and callbacks.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // `import X = require('x')` is TypeScript's import of a CommonJS module with `export =` (mocha).
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
    },
  },
  {
    files: ['src/**/*.ts', 'webview/**/*.ts'],
    plugins: { layers },
    rules: {
      'layers/imports': 'error',
      'layers/vscode-glue': 'error',
      'layers/no-cycle': 'error',
      'max-lines': ['warn', { max: 400, skipBlankLines: false, skipComments: false }],
    },
  },
);
