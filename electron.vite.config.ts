import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';

/**
 * Finds, once the module graph is built, every module the renderer's entry reaches by static imports: what the
 * first screen needs. Those go into one chunk (one request, one stylesheet); what is imported with import() stays
 * in chunks of its own, loaded when first used.
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
    },
  };
  return { plugin, has: (id) => reached.has(id) };
}

const firstScreen = firstScreenModules();

export default defineConfig({
  main: {
    plugins: [externalizeDepsPlugin()],
    build: { rollupOptions: { input: { index: resolve('src/main/electron/index.ts') } } },
  },
  preload: {
    plugins: [externalizeDepsPlugin()],
    // a sandboxed preload cannot be an ES module: CommonJS, with nothing but electron left external
    build: { rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs' } } },
  },
  renderer: {
    root: resolve('src/renderer'),
    // minified: the page parses faster, and a long session opens sooner
    build: {
      minify: true,
      rollupOptions: {
        input: { index: resolve('src/renderer/index.html') },
        output: { codeSplitting: { groups: [{ name: 'first-screen', test: firstScreen.has }] } },
      },
    },
    plugins: [react(), firstScreen.plugin],
  },
});
