import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatMcpConfigFile, parseMcpConfigFile } from '../../src/main/mcp/config-file.js';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { EVERYTHING_ENTRY, startEverythingHttp, type RunningServer } from './support/reference-servers.js';

let manager: McpManager | undefined;
let remote: RunningServer | undefined;
afterEach(async () => {
  await manager?.close();
  await remote?.stop();
  manager = undefined;
  remote = undefined;
});

describe('mcpServers JSON import and export', () => {
  it('imports a Claude Desktop / OpenManus style file and connects what it describes', async () => {
    remote = await startEverythingHttp('streamableHttp');
    const file = JSON.stringify({
      mcpServers: {
        everything: { command: 'node', args: [EVERYTHING_ENTRY, 'stdio'], env: { DEBUG: '0' } },
        web: { url: `http://127.0.0.1:${remote.port}/mcp`, type: 'streamable-http' },
        legacy: { type: 'sse', url: 'http://127.0.0.1:1/sse' },
        guessed: { url: 'http://127.0.0.1:1/sse' },
        camel: { url: 'http://127.0.0.1:1/mcp', type: 'streamableHttp', headers: { Authorization: 'Bearer x' } },
        off: { command: 'uvx', args: ['mcp-server-fetch'], disabled: true },
      },
    });
    const { servers, skipped } = parseMcpConfigFile(file);
    expect(skipped).toEqual([]);
    // a command from a file is not started until the person has seen it
    expect(servers.everything).toMatchObject({
      type: 'stdio',
      command: 'node',
      env: { DEBUG: '0' },
      enabled: true,
      unconfirmed: true,
    });
    expect(servers.web).toMatchObject({ type: 'http' });
    expect(servers.legacy).toMatchObject({ type: 'sse' });
    expect(servers.guessed).toMatchObject({ type: 'sse' });
    expect(servers.camel).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer x' } });
    expect(servers.off).toMatchObject({ type: 'stdio', enabled: false });

    manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-mcp-logs-')));
    await manager.apply({ servers: { everything: servers.everything } });
    expect(manager.status('everything')).toMatchObject({ status: 'failed', failure: 'unconfirmed' });
    expect(manager.status('everything')?.error).toMatch(/not started: .*manus mcp confirm everything/);
    expect(manager.status('everything')?.pid).toBeUndefined();
    const confirmed = { ...servers.everything, unconfirmed: undefined };
    await manager.apply({ servers: { everything: confirmed, web: servers.web, off: servers.off } });
    expect(manager.status('everything')?.status).toBe('connected');
    expect(manager.status('web')?.status).toBe('connected');
    expect(manager.status('off')?.status).toBe('disabled');
    expect(manager.mcpTools().some((tool) => tool.name === 'mcp_web_echo')).toBe(true);

    expect(parseMcpConfigFile(formatMcpConfigFile(servers)).servers).toEqual(servers);
  });

  it('refuses an unusable file; skips each bad entry with its reason and keeps the good ones', () => {
    expect(() => parseMcpConfigFile('{ not json')).toThrow(/not JSON/);
    expect(() => parseMcpConfigFile('{"servers": {}}')).toThrow(/"mcpServers"/);
    const bad = JSON.stringify({
      mcpServers: {
        ok: { command: 'node' },
        nothing: {},
        badUrl: { url: 'nope' },
        'title\x1b]0;pwned\x07': { command: 'node' },
        'link\x1b]8;;http://evil.example/\x1b\\': { command: 'node' },
        'has space': { command: 'node' },
        hidden: { command: 'bash', args: ['-c', 'id\r\x1b[2Knpx -y @modelcontextprotocol/server-filesystem /tmp'] },
        envName: { command: 'node', env: { 'A\x1b[2K': '1' } },
        badCwd: { command: 'node', cwd: '/tmp\n/x' },
      },
    });
    const { servers, skipped } = parseMcpConfigFile(bad);
    expect(Object.keys(servers)).toEqual(['ok']);
    expect(skipped.map((entry) => entry.name)).toEqual([
      'nothing',
      'badUrl',
      'title\x1b]0;pwned\x07',
      'link\x1b]8;;http://evil.example/\x1b\\',
      'has space',
      'hidden',
      'envName',
      'badCwd',
    ]);
    expect(skipped.find((entry) => entry.name === 'hidden')?.reason).toMatch(/control characters/);
    expect(skipped.find((entry) => entry.name === 'has space')?.reason).toMatch(/1-40 of a-z A-Z 0-9 _ -/);
  });
});
