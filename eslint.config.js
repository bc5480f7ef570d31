// Lint, including the process boundaries. `npm test` runs this, so crossing a boundary fails the build.
// The rules are tested in tests/unit/lint-boundaries.test.ts with code that breaks each one.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import globals from 'globals';

// Bare built-in names ('fs', 'events') must match exactly, or './events' would count as Node.
const nodeBuiltinNames = builtinModules.filter((m) => !m.startsWith('_'));
const nodeBuiltins = ['node:*'];

/** Everything a pure or browser-side module may not import: Node and its native-backed packages. */
const nodeOnlyPackages = ['better-sqlite3', 'fastify', '@fastify/*', 'socket.io', 'ws', 'electron', 'electron/*'];

const restrict = (patterns, paths = []) => ['error', { patterns, paths }];
const builtinPaths = (message) => nodeBuiltinNames.map((name) => ({ name, message }));
const forbid = (group, message) => ({ group, message });

const boundary = {
  shared: restrict([
    forbid(nodeBuiltins, 'shared/ is pure TypeScript: no Node built-ins.'),
    forbid([...nodeOnlyPackages, 'react', 'react-dom', 'dexie', 'socket.io-client'], 'shared/ is pure: no runtime-specific packages.'),
    forbid(['**/main/**', '**/renderer/**', '**/server/**', '../main', '../renderer', '../server'], 'shared/ imports nothing from the app or the server.'),
  ], builtinPaths('shared/ is pure TypeScript: no Node built-ins.')),
  mainCore: restrict([
    forbid(['electron', 'electron/*'], 'main/core is plain Node: only main/electron and the preload import electron.'),
    forbid(['**/renderer/**', '**/server/**', '**/main/electron/**', '../electron/*'], 'main/core may import shared/ only (and Node).'),
  ]),
  mainElectron: restrict([
    forbid(['**/renderer/**', '**/server/**'], 'main/ never imports the renderer or the server.'),
  ]),
  mainWeb: restrict([
    forbid(['electron', 'electron/*'], 'Web mode runs without Electron.'),
    forbid(['**/renderer/**', '**/server/**', '**/main/electron/**'], 'main/web may import main/core and shared/ only.'),
  ]),
  renderer: restrict([
    forbid(nodeBuiltins, 'The renderer is a browser page: no Node built-ins.'),
    forbid(nodeOnlyPackages, 'The renderer never imports Node or electron packages.'),
    forbid(['socket.io-client'], 'The renderer makes no network calls: live updates come through the bridge.'),
    forbid(['**/main/**', '**/server/**'], 'The renderer talks to main only through the bridge contract in shared/.'),
  ], builtinPaths('The renderer is a browser page: no Node built-ins.')),
  server: restrict([
    forbid(['electron', 'electron/*', 'react', 'react-dom', 'dexie'], 'The server is a plain Node service.'),
    forbid(['**/main/**', '**/renderer/**'], 'The server imports nothing from the app (shared/api record types only).'),
    forbid(['**/shared/bridge/**'], 'The server knows nothing of the bridge.'),
  ]),
};

/** Globals that would let the renderer reach the network or Node directly. */
const rendererForbiddenGlobals = [
  { name: 'fetch', message: 'The renderer makes no network calls: ask main through the bridge.' },
  { name: 'XMLHttpRequest', message: 'The renderer makes no network calls: ask main through the bridge.' },
  { name: 'EventSource', message: 'The renderer makes no network calls: ask main through the bridge.' },
  { name: 'WebSocket', message: 'Only renderer/src/platform/web-transport.ts (and early-start.ts, for it) opens a socket (to the local host).' },
  { name: 'process', message: 'No Node in the renderer.' },
  { name: 'require', message: 'No Node in the renderer.' },
  { name: 'Buffer', message: 'No Node in the renderer.' },
];
const pureForbiddenGlobals = [
  ...['window', 'document', 'navigator', 'localStorage', 'indexedDB', 'fetch'].map((name) => ({
    name,
    message: 'shared/ is pure: no DOM or network.',
  })),
  ...['process', 'require', 'Buffer', '__dirname'].map((name) => ({ name, message: 'shared/ is pure: no Node.' })),
];

// `no-restricted-imports` sees static imports only; these catch the same crossings written as a
// dynamic `import()` or a `require()`, and network APIs reached through a global object.
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const sourceRegex = (alternatives) => `/^(${alternatives.join('|')})(\\/.*)?$/`;
const nodeSource = sourceRegex(['node:.+', ...nodeBuiltinNames.map(escape)]);
const electronSource = sourceRegex(['electron']);
const dynamicImport = (source, message) => ({ selector: `ImportExpression[source.value=${source}]`, message });
const requireCall = (source, message) => ({ selector: `CallExpression[callee.name='require'][arguments.0.value=${source}]`, message });
const computedImport = { selector: "ImportExpression[source.type!='Literal']", message: 'Import a fixed module path, so the boundary rules can see it.' };
const networkViaGlobal = {
  selector: "MemberExpression[object.name=/^(window|globalThis|self|top|parent|frames)$/][property.name=/^(fetch|XMLHttpRequest|EventSource|WebSocket)$/]",
  message: 'The renderer makes no network calls: ask main through the bridge.',
};
const beacon = { selector: "MemberExpression[object.name='navigator'][property.name='sendBeacon']", message: 'The renderer makes no network calls: ask main through the bridge.' };
const syntax = {
  shared: ['error', computedImport, dynamicImport(nodeSource, 'shared/ is pure: no Node built-ins.'), dynamicImport(electronSource, 'shared/ is pure: no electron.')],
  mainCore: ['error', dynamicImport(electronSource, 'main/core is plain Node: only main/electron and the preload import electron.'), requireCall(electronSource, 'main/core is plain Node: only main/electron and the preload import electron.')],
  mainWeb: ['error', dynamicImport(electronSource, 'Web mode runs without Electron.'), requireCall(electronSource, 'Web mode runs without Electron.')],
  renderer: [
    'error',
    computedImport,
    dynamicImport(nodeSource, 'The renderer is a browser page: no Node built-ins.'),
    dynamicImport(electronSource, 'The renderer never imports Node or electron packages.'),
    networkViaGlobal,
    beacon,
  ],
};

export default tseslint.config(
  { ignores: ['dist/**', 'release/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'tests/unit/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: { 'no-restricted-imports': boundary.shared, 'no-restricted-globals': ['error', ...pureForbiddenGlobals], 'no-restricted-syntax': syntax.shared },
  },
  { files: ['main/core/**/*.ts'], languageOptions: { globals: globals.node }, rules: { 'no-restricted-imports': boundary.mainCore, 'no-restricted-syntax': syntax.mainCore } },
  { files: ['main/electron/**/*.ts', 'main/preload/**/*.ts'], languageOptions: { globals: globals.node }, rules: { 'no-restricted-imports': boundary.mainElectron } },
  { files: ['main/web/**/*.ts'], languageOptions: { globals: globals.node }, rules: { 'no-restricted-imports': boundary.mainWeb, 'no-restricted-syntax': syntax.mainWeb } },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: globals.browser },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': boundary.renderer,
      'no-restricted-globals': ['error', ...rendererForbiddenGlobals],
      'no-restricted-syntax': syntax.renderer,
    },
  },
  {
    // The sanctioned sockets: the web-mode bridge transport to the local host process, and the
    // head's early script that begins its first connection for it (taken over by the transport).
    files: ['renderer/src/platform/web-transport.ts', 'renderer/src/platform/early-start.ts'],
    rules: { 'no-restricted-globals': ['error', ...rendererForbiddenGlobals.filter((g) => g.name !== 'WebSocket')] },
  },
  { files: ['server/**/*.ts'], languageOptions: { globals: globals.node }, rules: { 'no-restricted-imports': boundary.server } },
  {
    // No import cycles in the app or the service: a cycle (db/ ↔ actions/ was one) hides which
    // module owns what, and module-evaluation order bugs follow. Type-only imports count too.
    files: ['renderer/**/*.{ts,tsx}', 'main/**/*.ts', 'shared/**/*.ts', 'server/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      // The plugin reads each imported file to follow its imports: TypeScript, resolved as tsc does.
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['renderer/tsconfig.json', 'main/tsconfig.json', 'shared/tsconfig.json', 'server/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    // Type-aware: a promise nobody awaits, catches or marks `void` is a write that can fail
    // silently (the outbox, the cache). Each file is checked with its boundary's tsconfig.
    files: ['renderer/**/*.{ts,tsx}', 'main/**/*.ts', 'shared/**/*.ts', 'server/**/*.ts'],
    languageOptions: {
      parserOptions: {
        // The x.ts files are the ones tests/unit/lint-boundaries.test.ts lints from text (they exist nowhere).
        projectService: { allowDefaultProject: ['shared/x.ts', 'main/core/x.ts', 'main/web/x.ts', 'main/electron/x.ts', 'main/preload/x.ts', 'server/x.ts', 'renderer/src/x.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // Handlers that return a promise where void is expected (React events, timers) are fine; a promise passed as a condition is not.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  { files: ['tests/**/*.{ts,tsx}', 'scripts/**/*.{ts,mjs}', '*.config.{ts,js}'], languageOptions: { globals: { ...globals.node, ...globals.browser } } },
);
