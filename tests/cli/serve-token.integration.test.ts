import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerCli, type ServerCli } from '../support/server-cli.js';

const SERVING_LINE = /serving on http:\/\/127\.0\.0\.1:\d+\/\?token=(\S+)/;

let dataDir: string | undefined;
let server: ServerCli | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/** Serves the data folder until the URL is printed, stops, and returns the token the URL carried. */
async function servedToken(args: string[], env: Record<string, string> = {}): Promise<string> {
  server = await startServerCli(['serve', '--port', '0', ...args], { MANUS_DATA_DIR: dataDir!, ...env }, SERVING_LINE);
  const token = SERVING_LINE.exec(server.stdout() + server.stderr())![1]!;
  await server.stop();
  server = undefined;
  return token;
}

describe('manus serve access token', () => {
  it('keeps one per data folder across restarts; --token and MANUS_SERVE_TOKEN override it; --new-token replaces it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-serve-token-'));
    const kept = await servedToken([]);
    expect(readFileSync(join(dataDir, 'serve-token'), 'utf8').trim()).toBe(kept);
    expect(await servedToken([])).toBe(kept);

    expect(await servedToken(['--token', 'a-token-from-the-flag-0001'])).toBe('a-token-from-the-flag-0001');
    expect(await servedToken([], { MANUS_SERVE_TOKEN: 'a-token-from-the-env-0002' })).toBe('a-token-from-the-env-0002');
    // an override does not replace the kept one
    expect(await servedToken([])).toBe(kept);

    const rotated = await servedToken(['--new-token']);
    expect(rotated).not.toBe(kept);
    expect(await servedToken([])).toBe(rotated);
  });

  it('refuses a MANUS_SERVE_TOKEN too short to be a secret, saying how to fix it', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-serve-token-'));
    await expect(servedToken([], { MANUS_SERVE_TOKEN: 'short' })).rejects.toThrow(/MANUS_SERVE_TOKEN/);
  });
});
