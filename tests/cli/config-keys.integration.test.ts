import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/cli.js';

let dataDir = '';
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('`manus config set` with a key the settings do not have', () => {
  it('refuses it, names the closest known key, and saves nothing', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-config-keys-'));
    const env = cliEnv(dataDir, 'http://127.0.0.1:9');

    const typo = await runCli(['config', 'set', 'sandbox.netwrk', 'true'], env);
    expect(typo.code).not.toBe(0);
    expect(typo.stdout).not.toContain('saved');
    expect(typo.stderr).toContain('"sandbox.netwrk" is not a setting. Did you mean "sandbox.network"?');

    const unknown = await runCli(['config', 'set', 'foo.bar', '1'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('"foo.bar" is not a setting.');
    expect(JSON.parse((await runCli(['config', 'get'], env)).stdout)).not.toHaveProperty('foo');

    expect((await runCli(['config', 'unset', 'agent.maxStep'], env)).stderr).toContain(
      'Did you mean "agent.maxSteps"?',
    );

    // known keys, a provider's own and a search engine's included, still save
    expect((await runCli(['config', 'set', 'search.engines.brave.apiKey', 'k'], env)).code).toBe(0);
    expect((await runCli(['config', 'set', 'llm.model', 'm2'], env)).code).toBe(0);
    expect((await runCli(['config', 'get', 'llm.model'], env)).stdout.trim()).toBe('m2');
  });
});
