import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const RENDERER_OUT = resolve('out/renderer');
const SOURCES = ['src/renderer', 'src/shared', 'scripts/renderer-build'];
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
  const index = join(RENDERER_OUT, 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  return built < Math.max(...SOURCES.map((folder) => newestMtime(resolve(folder))));
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

/** Builds the app (electron-vite) when out/renderer is missing or older than its sources. */
export async function ensureRendererBuilt(): Promise<string> {
  if (isStale()) {
    withBuildLock(() => {
      if (isStale()) execFileSync('npx', ['electron-vite', 'build'], { stdio: 'inherit' });
    });
  }
  return RENDERER_OUT;
}
