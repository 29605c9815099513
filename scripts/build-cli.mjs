// Bundles the `manus` CLI (the agent core without Electron) into out/cli/manus.mjs; dependencies stay external but zod.
// Split at the dynamic imports: each command's code and dependencies sit in chunks next to it, loaded when it runs.
import { readFile, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';

/** `import text from './file?raw'` as Vite reads it (the sandbox drivers): the file's text, bundled */
const rawTextImports = {
  name: 'raw-text-imports',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.slice(0, -'?raw'.length)),
      namespace: 'raw-text',
    }));
    pluginBuild.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
      watchFiles: [args.path],
    }));
  },
};

/**
 * Packages bundled into the chunks rather than left in node_modules: zod's entry loads about a hundred files (every
 * locale) on each start, which cost `manus sessions list` more than its own work; zod 4 tells its schemas apart by
 * their traits, not by module identity, so a dependency's own zod still reads ours.
 */
const BUNDLED_PACKAGES = /^zod(\/|$)/;

/** Every other bare import stays external, as `packages: 'external'` would leave it. */
const externalPackagesExceptBundled = {
  name: 'external-packages-except-bundled',
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.kind === 'entry-point' || BUNDLED_PACKAGES.test(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

const OUT_DIR = 'out/cli';

// chunk names carry a hash: the chunks of earlier builds would pile up
await rm(OUT_DIR, { recursive: true, force: true });
await build({
  // the store's event writer thread runs its own entry, found beside the chunk that starts it
  entryPoints: {
    manus: 'src/main/cli/main.ts',
    'event-writer-worker': 'src/main/store/event-log/event-writer-worker.ts',
  },
  outdir: OUT_DIR,
  outExtension: { '.js': '.mjs' },
  chunkNames: '[name]-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [rawTextImports, externalPackagesExceptBundled],
});
