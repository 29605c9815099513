import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
      // the CLI prints through a tagged template (printOut.line`...`), which filters every value for the terminal
      '@typescript-eslint/no-unused-expressions': ['error', { allowTaggedTemplates: true }],
    },
  },
  {
    // one way text from outside reaches the terminal: the commands print through src/main/cli/output
    files: ['src/main/cli/**/*.ts'],
    ignores: ['src/main/cli/output/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[object.object.name='process'][object.property.name=/^std(out|err)$/][property.name='write']",
          message: 'Print with printOut/printErr (src/main/cli/output/terminal-print.ts): they filter outside text.',
        },
        {
          selector: "CallExpression[callee.object.name='console']",
          message: 'Print with printOut/printErr (src/main/cli/output/terminal-print.ts): they filter outside text.',
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // the agent core runs in the CLI, the web server and tests: only the electron shell may import electron
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/electron/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [{ name: 'electron', message: 'Only src/main/electron may import electron.' }] },
      ],
    },
  },
);
