import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/cli.js';
import { SWEEP_STAMP_FILE } from '../../src/main/cli/commands/sandbox-sweep.js';

let dataDir = '';
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the detached sandbox sweep', () => {
  it('starts at most once a minute per data folder, whatever the commands run meanwhile', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-sweep-'));
    const env = cliEnv(dataDir, 'http://127.0.0.1:9');
    expect((await runCli(['config', 'path'], env)).code).toBe(0);
    const stamp = join(dataDir, SWEEP_STAMP_FILE);
    const first = statSync(stamp).mtimeMs;
    expect((await runCli(['sessions', 'list'], env)).code).toBe(0);
    expect((await runCli(['config', 'path'], env)).code).toBe(0);
    // the later commands found the sweep started and left the stamp alone
    expect(statSync(stamp).mtimeMs).toBe(first);
  });
});
