// ESLint flat config: a small, type-aware rule set aimed at real bugs (lost promises, dead code,
// loose equality, fallthrough). Formatting is prettier's job, so no stylistic rules here.
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

/** Rules that need no type information: they apply to TypeScript and JavaScript alike. */
const coreRules = {
  'no-fallthrough': 'error',
  'no-unreachable': 'error',
  'no-unused-private-class-members': 'error',
  eqeqeq: ['error', 'always', { null: 'ignore' }],
};

/**
 * `replace`/`replaceAll` with a replacement string built from data: the string's `$&`, `$'`, `` $` ``
 * and `$$` are patterns, so a record's text could copy parts of the page into itself (issue 43). A
 * literal replacement or a function is fine. Not for tests, which build expected strings this way.
 */
const noDataReplacement = {
  'no-restricted-syntax': [
    'error',
    {
      selector:
        "CallExpression[callee.property.name=/^replace(All)?$/][arguments.length>=2]:not([arguments.1.type=/^(Literal|ArrowFunctionExpression|FunctionExpression)$/]):not([arguments.1.type='TemplateLiteral'][arguments.1.expressions.length=0])",
      message:
        'A replacement string built from data interprets `$` patterns: pass a function (() => text) instead.',
    },
  ],
};

const unusedVarsOptions = {
  args: 'after-used',
  argsIgnorePattern: '^_',
  varsIgnorePattern: '^_',
  caughtErrorsIgnorePattern: '^_',
  destructuredArrayIgnorePattern: '^_',
  ignoreRestSiblings: true,
};

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    '**/cdk.out/',
    '**/.data/',
    '**/coverage/',
    '**/test-results/',
    'web/dist/',
    'web/dist.tmp-*/',
    'shared/schemas/compiled/',
    'client/dist/',
  ]),
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: { ...coreRules, 'no-unused-vars': ['error', unusedVarsOptions] },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@typescript-eslint': tseslint.plugin },
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      ...coreRules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', unusedVarsOptions],
    },
  },
  {
    files: ['{shared,functions,local,scripts,import-export,web,infra,client,bench}/**/*.{ts,js,mjs}'],
    rules: noDataReplacement,
  },
]);
