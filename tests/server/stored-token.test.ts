import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serveTokenPath, storedServeToken } from '../../src/main/server/stored-token.js';

const OWNER_ONLY = 0o600;
let dataDir: string | undefined;
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

function folder(): string {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-token-'));
  return dataDir;
}

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe('the token manus serve keeps per data folder', () => {
  it('is made once, owner-only, and the same at every start', () => {
    const dir = folder();
    const first = storedServeToken(dir);
    expect(first.length).toBeGreaterThanOrEqual(16);
    expect(modeOf(serveTokenPath(dir))).toBe(OWNER_ONLY);
    expect(storedServeToken(dir)).toBe(first);
    expect(readFileSync(serveTokenPath(dir), 'utf8').trim()).toBe(first);
  });

  it('is replaced when rotated', () => {
    const dir = folder();
    const first = storedServeToken(dir);
    const rotated = storedServeToken(dir, { rotate: true });
    expect(rotated).not.toBe(first);
    expect(storedServeToken(dir)).toBe(rotated);
    expect(modeOf(serveTokenPath(dir))).toBe(OWNER_ONLY);
  });

  it('tightens a kept file others could read, and replaces one that holds no valid token', () => {
    const dir = folder();
    const path = serveTokenPath(dir);
    writeFileSync(path, 'a-kept-token-of-enough-length\n');
    chmodSync(path, 0o644);
    expect(storedServeToken(dir)).toBe('a-kept-token-of-enough-length');
    expect(modeOf(path)).toBe(OWNER_ONLY);

    writeFileSync(path, 'short');
    const fresh = storedServeToken(dir);
    expect(fresh).not.toBe('short');
    expect(fresh.length).toBeGreaterThanOrEqual(16);
  });
});
