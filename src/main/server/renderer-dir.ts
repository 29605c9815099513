import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const RENDERER_OUT = join('out', 'renderer');
const MAX_LEVELS_UP = 6;

/**
 * Where the built renderer is: MANUS_RENDERER_DIR, else the nearest out/renderer above this module
 * (the bundled CLI lives in the package, so walking up finds it), else out/renderer in the working folder.
 */
export function findRendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MANUS_RENDERER_DIR) return resolve(env.MANUS_RENDERER_DIR);
  let folder = dirname(fileURLToPath(import.meta.url));
  for (let level = 0; level < MAX_LEVELS_UP; level += 1) {
    const candidate = join(folder, RENDERER_OUT);
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    folder = dirname(folder);
  }
  return resolve(RENDERER_OUT);
}
