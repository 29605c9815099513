import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreApi } from '../../src/main/api/core-api.js';
import type { McpServerState } from '../../src/shared/contract.js';
import type { AppSettings } from '../../src/shared/settings/app-settings.js';
import { stdioLaunchOf } from '../../src/shared/settings/mcp-launch.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { coreApiOver, invokeOk } from '../support/core-api-harness.js';
import { waitFor } from '../support/wait-for.js';

const ASKING_SERVER = join(import.meta.dirname, '..', 'mcp', 'fixtures', 'asking-server.ts');

let harness: CoreHarness | undefined;
let api: CoreApi | undefined;
afterEach(async () => {
  await api?.close();
  await harness?.close();
  harness = undefined;
  api = undefined;
});

const ok = <T>(name: string, payload: unknown) => invokeOk<T>(api!, name, payload);

async function status(name: string): Promise<McpServerState | undefined> {
  return (await ok<McpServerState[]>('mcpStatus', {})).find((server) => server.name === name);
}

describe('the settings screen and an imported stdio command', { timeout: 120_000 }, () => {
  it('shows it unconfirmed and never starts it; confirming that very launch lets it start', async () => {
    harness = await startCoreHarness(sequence({ text: 'Done.' }));
    api = coreApiOver(harness);
    const marker = join(harness.dataDir, 'server-started');
    const imported = await ok<{ servers: Record<string, unknown>; skipped: { name: string; reason: string }[] }>(
      'importMcpConfig',
      {
        text: JSON.stringify({
          mcpServers: {
            // proves it ran by leaving a file, then serves MCP
            files: {
              command: 'bash',
              args: ['-c', `touch '${marker}' && exec '${process.execPath}' --import tsx '${ASKING_SERVER}'`],
              env: { API_TOKEN: 'tok-1234567890abcd' },
            },
            'docs\x1b]8;;http://evil.example/\x1b\\': { command: 'node' },
          },
        }),
      },
    );
    expect(Object.keys(imported.servers)).toEqual(['files']);
    expect(imported.skipped).toEqual([
      { name: 'docs\x1b]8;;http://evil.example/\x1b\\', reason: expect.stringMatching(/1-40 of a-z/) },
    ]);

    // what the settings screen gets: the server marked unconfirmed, its whole launch there to show
    const shown = await ok<AppSettings>('getSettings', {});
    const entry = shown.mcp.servers.files!;
    if (entry.type !== 'stdio') throw new Error('files is a stdio server');
    expect(entry.unconfirmed).toBe(true);
    const launch = stdioLaunchOf(entry);
    expect(launch).toEqual({ command: 'bash', args: entry.args, envNames: ['API_TOKEN'] });

    // the screen's own status poll connects every enabled server: this one is not started
    expect(await status('files')).toMatchObject({ status: 'failed', error: expect.stringMatching(/not started/) });
    expect(existsSync(marker)).toBe(false);

    // a launch other than the stored one (it changed since it was shown) confirms nothing
    const stale = await api.invoke('confirmMcpServer', { name: 'files', launch: { ...launch, args: ['-c', 'true'] } });
    expect(stale).toMatchObject({ ok: false, error: { code: 'conflict' } });
    expect((await status('files'))?.status).toBe('failed');
    expect(existsSync(marker)).toBe(false);

    await ok('confirmMcpServer', { name: 'files', launch });
    const confirmed = await ok<AppSettings>('getSettings', {});
    expect(confirmed.mcp.servers.files).not.toHaveProperty('unconfirmed');
    await waitFor(async () => (await status('files'))?.status === 'connected', 60_000, 'the confirmed server');
    expect(existsSync(marker)).toBe(true);
  });
});
