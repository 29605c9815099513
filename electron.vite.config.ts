import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { prerenderFirstScreen } from './scripts/renderer-build/prerender-first-screen.js';
import { DEV_CSP_NONCE_ENV, META_POLICY_TAG, devServerPolicy } from './src/main/server/csp.js';

/**
 * Finds, once the module graph is built, every module the renderer's entry reaches by static imports: what the
 * first screen needs. Those go into two chunks (firstScreenChunks); what is imported with import() stays in chunks of
 * its own, loaded when first used.
 */
function firstScreenModules(): { plugin: Plugin; has: (id: string) => boolean } {
  const reached = new Set<string>();
  const plugin: Plugin = {
    name: 'manus:first-screen-modules',
    buildEnd() {
      const pending = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      while (pending.length > 0) {
        const id = pending.pop()!;
        if (reached.has(id)) continue;
        reached.add(id);
        pending.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
      const importers = [...reached]
        .filter((id) => !NOT_IN_FIRST_SCREEN.test(id))
        .filter((id) => this.getModuleInfo(id)?.importedIds.some((imported) => NOT_IN_FIRST_SCREEN.test(imported)));
      if (importers.length > 0) {
        this.error(
          `The first screen must not load zod (the contract's schemas load beside it, issue 16), but these modules ` +
            `import it statically: ${importers.map((id) => id.replace(process.cwd() + '/', '')).join(', ')}. ` +
            `Take plain values from a zod-free module (src/shared/session-vocabulary.ts, tool-kind.ts, step-report.ts, ` +
            `contract/event-window-size.ts, contract/upload-limits.ts) or load the schema with import().`,
        );
      }
    },
  };
  return { plugin, has: (id) => reached.has(id) };
}

/** what the first screen never loads: zod and the schemas built with it cost a fifth of its script */
const NOT_IN_FIRST_SCREEN = /[\\/]node_modules[\\/]zod[\\/]/;

/**
 * The app's scripts and stylesheet are fetched while the page still waits for theme.js (a blocking script, so the
 * theme applies before first paint): otherwise Chromium asks for them only once theme.js has arrived, a round trip later.
 */
function fetchAppScriptFirst(): Plugin {
  return {
    name: 'manus:fetch-app-script-first',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const script = /<script type="module" crossorigin src="([^"]+)"><\/script>/.exec(html)?.[1];
        const styles = [...html.matchAll(/<link rel="stylesheet" crossorigin href="([^"]+)">/g)].map(
          (match) => match[1],
        );
        // the chunks the entry imports, which Vite links after it
        const imported = [...html.matchAll(/\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g)];
        for (const [link] of imported) html = html.replace(link, '');
        const early = [
          ...[script, ...imported.map((match) => match[1])]
            .filter(Boolean)
            .map((href) => `<link rel="modulepreload" crossorigin href="${href}" />`),
          ...styles.map((href) => `<link rel="preload" as="style" crossorigin href="${href}" />`),
        ];
        return html.replace(/<script src="[^"]*theme\.js"><\/script>/, (theme) => [...early, theme].join('\n    '));
      },
    },
  };
}

const firstScreen = firstScreenModules();

/**
 * The first screen comes in two chunks, the libraries and the app's own code, both preloaded at once: Chromium parses
 * and compiles them side by side on two threads, and the page's main thread has less left to do (4–5 ms less CPU
 * before the composer can be typed into than with one chunk). Rolldown's runtime, which both use, is a third one.
 */
const firstScreenChunks = [
  {
    name: 'vendor',
    test: (id: string) => firstScreen.has(id) && /[\\/]node_modules[\\/]/.test(id),
    priority: 2,
  },
  { name: 'first-screen', test: firstScreen.has, priority: 1 },
];

/**
 * The app's own first-screen chunk (the entry) asks V8 to compile all its functions while it parses the chunk, off the
 * main thread (a magic comment on its first line, Chromium 136 and later): nearly all of them run before the composer
 * is ready, and compiled lazily they held the main thread. The libraries' chunk stays lazy: most of React DOM never
 * runs at start.
 */
function compileEntryEagerly(): Plugin {
  return {
    name: 'manus:compile-entry-eagerly',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !chunk.isEntry) continue;
          chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
          // a source map, when one is built, skips the added line
          const map = bundle[`${chunk.fileName}.map`];
          if (map?.type === 'asset' && typeof map.source === 'string') {
            const parsed = JSON.parse(map.source) as { mappings: string };
            map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
          }
        }
      },
    },
  };
}

/** the dev server's nonce, one per `npm run dev` (the built page allows its inline code by hash instead) */
const DEV_CSP_NONCE = randomBytes(18).toString('base64url');

/**
 * Under the dev server, the page's meta policy also allows DEV_CSP_NONCE, which Vite puts on the React plugin's inline
 * preamble and on the styles it injects (html.cspNonce); the main process sends the same policy as the header.
 */
function devPagePolicy(): Plugin {
  return {
    name: 'manus:dev-page-policy',
    apply: 'serve',
    transformIndexHtml(html) {
      return html.replace(META_POLICY_TAG, (_meta, open: string, _policy: string, close: string) => {
        return `${open}${devServerPolicy(DEV_CSP_NONCE)}${close}`;
      });
    },
  };
}

export default defineConfig(({ command }) => {
  // the Electron process electron-vite starts inherits this environment (rendererPolicy reads it)
  if (command === 'serve') process.env[DEV_CSP_NONCE_ENV] = DEV_CSP_NONCE;
  return {
    main: {
      plugins: [externalizeDepsPlugin()],
      build: {
        rollupOptions: {
          input: {
            index: resolve('src/main/electron/index.ts'),
            // the store's event writer thread runs its own entry, found beside the code that starts it
            'event-writer-worker': resolve('src/main/store/event-log/event-writer-worker.ts'),
          },
        },
      },
    },
    preload: {
      plugins: [externalizeDepsPlugin()],
      // a sandboxed preload cannot be an ES module: CommonJS, with nothing but electron left external
      build: { rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs' } } },
    },
    renderer: {
      root: resolve('src/renderer'),
      ...(command === 'serve' ? { html: { cspNonce: DEV_CSP_NONCE } } : {}),
      // minified: the page parses faster, and a long session opens sooner
      build: {
        minify: true,
        rollupOptions: {
          input: { index: resolve('src/renderer/index.html') },
          output: { codeSplitting: { groups: firstScreenChunks } },
        },
      },
      plugins: [
        react(),
        firstScreen.plugin,
        fetchAppScriptFirst(),
        compileEntryEagerly(),
        prerenderFirstScreen('/src/shell/first-screen-html.tsx'),
        devPagePolicy(),
      ],
    },
  };
});
