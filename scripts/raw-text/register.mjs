// `node --import` / `tsx --import` this so `import text from './file?raw'` works straight from src/ (the benches), as
// it does in the Vite and esbuild bundles and in vitest.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
