import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const RENDERER_OUT = resolve('out/renderer');
const SOURCES = ['src/renderer', 'src/shared'];

function newestMtime(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds the renderer (electron-vite) when out/renderer is missing or older than its sources. */
export async function ensureRendererBuilt(): Promise<string> {
  const index = join(RENDERER_OUT, 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  if (built < Math.max(...SOURCES.map((folder) => newestMtime(resolve(folder))))) {
    execFileSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
  }
  return RENDERER_OUT;
}
