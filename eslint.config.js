// @ts-check
// ESLint flat config. TypeScript is linted with type information (strictTypeChecked), so rules
// such as no-floating-promises see through the real types; formatting is left to Prettier.
import eslint from '@eslint/js'
import prettier from 'eslint-config-prettier'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  // Generated, installed or vendored, Stryker's sandbox left by an interrupted run, its reports, the
  // suites cut down for a run on a change and the mutation baseline: never linted.
  {
    ignores: [
      'dist/',
      'build/',
      'coverage/',
      'node_modules/',
      'schemas/',
      '.stryker-tmp/',
      '.test-tmp/',
      'reports/',
      '__tests__/mutation-change/',
      'stryker-baseline/'
    ]
  },

  eslint.configs.recommended,

  {
    files: ['{src,__tests__,simulator,scripts,bench}/**/*.ts'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname }
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Numbers in messages ("after 3 attempts") are clear; objects, undefined and null are not.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => core.info(m)`, `void promise` and `return send(res)` in a void function discard nothing useful.
      '@typescript-eslint/no-confusing-void-expression': [
        'error',
        { ignoreArrowShorthand: true, ignoreVoidOperator: true, ignoreVoidReturningFunctions: true }
      ],
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // Job statuses, outcomes and error kinds are unions: a switch over them must name every case.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always', { null: 'ignore' }]
    }
  },

  {
    files: ['src/**/*.ts'],
    rules: {
      // The action logs through @actions/core (masking, debug switch), never straight to the console.
      'no-console': 'error',
      // A file over 300 lines holds more than one concern: move a piece to a file named for it.
      'max-lines': ['error', { max: 300 }],
      // A function over 60 lines does several things: name each as its own function (a factory assembles them).
      'max-lines-per-function': ['error', { max: 60 }],
      // Octokit's paginate sends every page without the request's signal: pages are read with allPages (github/pages.ts).
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='paginate']",
          message: 'Read pages with allPages (src/github/pages.ts): paginate drops request.signal from every page.'
        }
      ]
    }
  },

  {
    files: ['__tests__/**/*.ts'],
    rules: {
      // `expect(obj.method).toHaveBeenCalled()` passes methods around without calling them.
      '@typescript-eslint/unbound-method': 'off'
    }
  },

  // Last: turns off every rule that would fight Prettier.
  prettier
)
