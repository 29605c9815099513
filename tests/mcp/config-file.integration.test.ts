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
    const servers = parseMcpConfigFile(file);
    expect(servers.everything).toMatchObject({ type: 'stdio', command: 'node', env: { DEBUG: '0' }, enabled: true });
    expect(servers.web).toMatchObject({ type: 'http' });
    expect(servers.legacy).toMatchObject({ type: 'sse' });
    expect(servers.guessed).toMatchObject({ type: 'sse' });
    expect(servers.camel).toMatchObject({ type: 'http', headers: { Authorization: 'Bearer x' } });
    expect(servers.off).toMatchObject({ type: 'stdio', enabled: false });

    manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-mcp-logs-')));
    await manager.apply({ servers: { everything: servers.everything, web: servers.web, off: servers.off } });
    expect(manager.status('everything')?.status).toBe('connected');
    expect(manager.status('web')?.status).toBe('connected');
    expect(manager.status('off')?.status).toBe('disabled');
    expect(manager.mcpTools().some((tool) => tool.name === 'mcp_web_echo')).toBe(true);

    expect(parseMcpConfigFile(formatMcpConfigFile(servers))).toEqual(servers);
  });

  it('rejects a bad file whole, naming each bad entry', () => {
    expect(() => parseMcpConfigFile('{ not json')).toThrow(/not JSON/);
    expect(() => parseMcpConfigFile('{"servers": {}}')).toThrow(/"mcpServers"/);
    const bad = JSON.stringify({ mcpServers: { ok: { command: 'node' }, nothing: {}, badUrl: { url: 'nope' } } });
    expect(() => parseMcpConfigFile(bad)).toThrow(/"nothing"[\s\S]*"badUrl"/);
  });
});
