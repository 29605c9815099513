import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/main/store/store.js';
import { runMcpCli } from './support/cli-program.js';
import { EVERYTHING_ENTRY, FILESYSTEM_ENTRY } from './support/reference-servers.js';

afterEach(() => {
  process.exitCode = undefined;
});

function freshDataDir(): string {
  return mkdtempSync(join(tmpdir(), 'manus-mcp-cli-'));
}

describe('manus mcp', () => {
  it('adds, lists, disables, enables, tests and removes servers in the saved settings', async () => {
    const dataDir = freshDataDir();
    expect(await runMcpCli(dataDir, ['add', 'everything', '--', 'node', EVERYTHING_ENTRY, 'stdio'])).toMatch(
      /MCP server "everything" added: node .*index\.js stdio/,
    );
    await runMcpCli(dataDir, [
      'add',
      'remote',
      '--url',
      'http://127.0.0.1:9/mcp',
      '--header',
      'Authorization=Bearer s3cret-token-value',
    ]);
    await expect(runMcpCli(dataDir, ['add', 'everything', '--command', 'node'])).rejects.toThrow(/exists already/);
    await expect(runMcpCli(dataDir, ['add', 'nothing'])).rejects.toThrow(/Give a command/);

    const listed = JSON.parse(await runMcpCli(dataDir, ['list', '--json']));
    expect(listed.map((server: { name: string }) => server.name)).toEqual(['everything', 'remote']);
    expect(listed[1]).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer s3cret-token-value' } });

    // credentials are encrypted at rest
    const store = openStore(dataDir);
    const raw = JSON.stringify(store.getSetting('settings'));
    store.close();
    expect(raw).not.toContain('s3cret-token-value');

    await runMcpCli(dataDir, ['disable', 'remote']);
    expect(await runMcpCli(dataDir, ['list'])).toMatch(/remote\tdisabled\thttp http:\/\/127\.0\.0\.1:9\/mcp/);
    await runMcpCli(dataDir, ['enable', 'remote']);
    expect(await runMcpCli(dataDir, ['list'])).toMatch(/remote\tenabled /);

    const tested = await runMcpCli(dataDir, ['test', 'everything']);
    expect(tested).toMatch(/^everything: connected/);
    expect(tested).toMatch(/get-tiny-image/);
    expect(tested).toMatch(/prompts \(\d+\)/);

    const failed = await runMcpCli(dataDir, ['test', 'remote']);
    expect(failed).toMatch(/remote: failed — could not connect/);
    expect(process.exitCode).toBe(1);

    await runMcpCli(dataDir, ['remove', 'remote']);
    await expect(runMcpCli(dataDir, ['remove', 'remote'])).rejects.toThrow(/No MCP server "remote"/);
    expect(JSON.parse(await runMcpCli(dataDir, ['list', '--json']))).toHaveLength(1);
  });

  it('imports and exports the mcpServers JSON', async () => {
    const dataDir = freshDataDir();
    const file = join(dataDir, 'claude_desktop_config.json');
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: {
          files: { command: 'node', args: [FILESYSTEM_ENTRY, dataDir] },
          web: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
        },
      }),
    );
    expect(await runMcpCli(dataDir, ['import', file])).toMatch(/Imported 2 MCP server\(s\): files, web/);
    expect(await runMcpCli(dataDir, ['import', file])).toMatch(/Kept the existing files, web/);
    // an imported command does not start before the person has seen and confirmed it
    expect(await runMcpCli(dataDir, ['test', 'files'])).toMatch(/files: failed — not started: .*mcp confirm files/);
    expect(await runMcpCli(dataDir, ['confirm', 'files', '--yes'])).toMatch(/files: node .*index\.js/);
    expect(await runMcpCli(dataDir, ['test', 'files'])).toMatch(/files: connected[\s\S]*list_directory/);

    const exported = JSON.parse(await runMcpCli(dataDir, ['export']));
    expect(exported.mcpServers.files).toEqual({ command: 'node', args: [FILESYSTEM_ENTRY, dataDir] });
    expect(exported.mcpServers.web).toEqual({ type: 'sse', url: 'http://127.0.0.1:9/sse' });
    await runMcpCli(dataDir, ['export', join(dataDir, 'out.json')]);
    expect(JSON.parse(readFileSync(join(dataDir, 'out.json'), 'utf8'))).toEqual(exported);

    writeFileSync(file, JSON.stringify({ mcpServers: { bad: { url: 'not a url' } } }));
    await expect(runMcpCli(dataDir, ['import', file])).rejects.toThrow(/Nothing imported/);
    expect(Object.keys(JSON.parse(await runMcpCli(dataDir, ['export'])).mcpServers)).toEqual(['files', 'web']);
  });
});
