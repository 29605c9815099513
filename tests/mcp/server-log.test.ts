import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  clipLogMessage,
  MAX_LOG_MESSAGE_CHARS,
  MAX_SERVER_LOG_BYTES,
  ServerLog,
} from '../../src/main/mcp/server-log.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function logIn(): ServerLog {
  const folder = mkdtempSync(join(tmpdir(), 'manus-server-log-'));
  folders.push(folder);
  return new ServerLog(join(folder, 'logs', 'mcp-flood.log'));
}

describe('a server log', () => {
  it('rotates past its size: 5 MB written leave the current file and one older one, each within the limit', async () => {
    const log = logIn();
    const line = `${'x'.repeat(64 * 1024 - 1)}\n`;
    for (let written = 0; written < 80; written++) void log.write(line);
    await log.write('the last line\n');
    const current = statSync(log.path).size;
    const older = statSync(`${log.path}.1`).size;
    expect(current).toBeLessThanOrEqual(MAX_SERVER_LOG_BYTES);
    expect(older).toBeLessThanOrEqual(MAX_SERVER_LOG_BYTES);
    expect(older).toBeGreaterThan(MAX_SERVER_LOG_BYTES / 2);
    expect(readFileSync(log.path, 'utf8').endsWith('the last line\n')).toBe(true);
    expect(existsSync(`${log.path}.2`)).toBe(false);
  });

  it('cuts one write larger than the whole file to the file size', async () => {
    const log = logIn();
    await log.write('y'.repeat(3 * MAX_SERVER_LOG_BYTES));
    expect(statSync(log.path).size).toBe(MAX_SERVER_LOG_BYTES);
  });

  it('clips a message to its limit and says how much was cut', () => {
    expect(clipLogMessage('short')).toBe('short');
    const clipped = clipLogMessage('m'.repeat(MAX_LOG_MESSAGE_CHARS + 500));
    expect(clipped).toBe(`${'m'.repeat(MAX_LOG_MESSAGE_CHARS)}… [500 more characters cut]`);
  });
});
