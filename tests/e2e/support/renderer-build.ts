import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const RENDERER_OUT = resolve('out/renderer');
/** what one `electron-vite build` writes that the tests use: the page, and the main process the stub runs */
const BUILT = [join(RENDERER_OUT, 'index.html'), resolve('out/main/index.js')];
const SOURCES = ['src', 'scripts/renderer-build'];
const CONFIG = resolve('electron.vite.config.ts');
const LOCK_DIR = resolve('out/.renderer-build.lock');
const LOCK_STALE_MS = 5 * 60_000;
const LOCK_POLL_MS = 200;

function newestMtime(folder: string): number {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function isStale(): boolean {
  const built = Math.min(...BUILT.map((file) => (existsSync(file) ? statSync(file).mtimeMs : 0)));
  return built < Math.max(statSync(CONFIG).mtimeMs, ...SOURCES.map((folder) => newestMtime(resolve(folder))));
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Test files run in parallel workers: one builds while the others wait, then find the build fresh. */
function withBuildLock(body: () => void): void {
  mkdirSync(resolve('out'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK_DIR);
      break;
    } catch {
      const lock = statSync(LOCK_DIR, { throwIfNoEntry: false });
      // a lock left by a killed run does not block the next one forever
      if (lock && Date.now() - lock.mtimeMs > LOCK_STALE_MS) rmSync(LOCK_DIR, { force: true, recursive: true });
      sleep(LOCK_POLL_MS);
    }
  }
  try {
    body();
  } finally {
    rmSync(LOCK_DIR, { force: true, recursive: true });
  }
}

/**
 * Builds the app (electron-vite) when its page or main process is missing or older than the sources, once for all
 * test files: a second build while the e2e files serve out/renderer would empty it under them.
 */
export function ensureAppBuilt(): void {
  if (!isStale()) return;
  withBuildLock(() => {
    if (isStale()) execFileSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
  });
}

export async function ensureRendererBuilt(): Promise<string> {
  ensureAppBuilt();
  return RENDERER_OUT;
}
