/**
 * The layers of the app (see ARCHITECTURE.md): each folder sits on a floor and imports only from floors below it,
 * or from folders listed before it on its own floor. `npm run lint` fails on a break of this order or on a cycle.
 */
const FLOORS = [
  // 0 contracts: zod schemas and types every process shares
  ['src/shared'],
  // 1 parts, each with one real dependency; a part may use a part listed before it
  [
    'process',
    'store',
    'config',
    'human',
    'workspace',
    'net',
    'llm',
    'sandbox',
    'browser',
    'search',
    'document',
    'knowledge',
  ],
  // 2 tools as values, and the MCP client whose tools join them
  ['tool', 'mcp'],
  // 3 the approval policy and the agents' think/act loop
  ['approval', 'agent'],
  // 4 flows and session modes, built from agents
  ['flow'],
  // 5 the session service: builds each session's context, runs turns, owns the event bus
  ['session'],
  // 6 the core every host runs, and the contract's handlers
  ['app', 'api'],
  // 7 transports: thin shells over the core
  ['server', 'mcp/server', 'a2a', 'cli', 'electron'],
];

/** `src/main/<name>` for core folders; the MCP server is its own transport inside mcp/. */
const pathOf = (name) => (name.startsWith('src/') ? name : `src/main/${name}`);
const ORDER = FLOORS.flat();
const folderPattern = (name) => `^${pathOf(name).replace('/', '\\/')}/`;

/** Folders a folder must not import: everything after it in the order (the MCP client never imports its server). */
function forbiddenFor(name) {
  const later = ORDER.slice(ORDER.indexOf(name) + 1);
  return later.filter((other) => !(name === 'mcp/server' && other === 'mcp'));
}

const layerRules = ORDER.map((name) => {
  const later = forbiddenFor(name);
  return later.length === 0
    ? undefined
    : {
        name: `layer-${name.replace(/\//g, '-')}`,
        comment: `${name} sits below ${later.join(', ')}: it may not import them (ARCHITECTURE.md)`,
        severity: 'error',
        from: {
          path: folderPattern(name),
          ...(name === 'mcp' ? { pathNot: folderPattern('mcp/server') } : {}),
        },
        to: { path: later.map(folderPattern) },
      };
}).filter(Boolean);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'modules that import each other in a circle cannot be read, tested or moved one at a time',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'shared-imports-only-zod',
      comment: 'the contract runs in every process, the renderer included: it imports zod and itself, nothing else',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', '(^|/)node_modules/zod/'] },
    },
    {
      name: 'core-without-electron',
      comment: 'the core runs the same in the CLI, the web server and tests: only src/main/electron may use Electron',
      severity: 'error',
      from: { path: '^src/main/', pathNot: '^src/main/electron/' },
      to: { path: '(^|/)node_modules/electron/' },
    },
    {
      name: 'renderer-through-the-contract',
      comment: 'the renderer reaches the core only over IPC or WebSocket, through src/shared',
      severity: 'error',
      from: { path: '^src/renderer/' },
      to: { path: '^src/main/' },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
