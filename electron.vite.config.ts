import { resolve } from 'node:path';
import { defineConfig, externalizeDepsPlugin } from 'electron-vite';
import react from '@vitejs/plugin-react';

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
    // minified: the page parses faster, and a long session opens sooner; one local chunk is fine for a desktop app
    build: {
      minify: true,
      chunkSizeWarningLimit: 1024,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
