import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { SessionMcp } from '../../src/main/mcp/session-mcp.js';
import { McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';
import type { ScriptRequest } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { waitFor } from '../support/wait-for.js';

const FLAKY = fileURLToPath(new URL('./fixtures/flaky-server.mjs', import.meta.url));

let folder = '';
let manager: McpManager | undefined;
let harness: CoreHarness | undefined;
afterEach(async () => {
  await manager?.close();
  await harness?.close();
  manager = undefined;
  harness = undefined;
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** The flaky server's files: `down` keeps it from starting, `tools` names its tools. */
function flakyServer(tools: string[]) {
  folder = mkdtempSync(join(tmpdir(), 'manus-flaky-mcp-'));
  const down = join(folder, 'down');
  const toolsFile = join(folder, 'tools');
  writeFileSync(toolsFile, tools.join('\n'));
  const config = {
    type: 'stdio' as const,
    command: process.execPath,
    args: [FLAKY, down, toolsFile],
    connectTimeoutMs: 10_000,
  };
  return { down, toolsFile, config };
}

const names = (m: McpManager) => m.mcpTools().map((tool) => tool.name);

describe('an MCP server that goes down and comes back (real stdio server)', () => {
  it('has its tools removed while it is down and brought back on reconnect', async () => {
    const flaky = flakyServer(['lookup']);
    manager = new McpManager(folder);
    await manager.apply(McpSettingsSchema.parse({ servers: { flaky: flaky.config } }));
    expect(names(manager)).toEqual(['mcp_flaky_lookup']);
    const changes: string[][] = [];
    manager.onToolsChanged((tools) => changes.push(tools.map((tool) => tool.name)));

    writeFileSync(flaky.down, '');
    process.kill(manager.status('flaky')!.pid!, 'SIGKILL');
    await waitFor(() => manager!.status('flaky')?.status === 'failed', 10_000, 'the server to be seen down');
    expect(names(manager)).toEqual([]);

    rmSync(flaky.down);
    await waitFor(() => manager!.status('flaky')?.status === 'connected', 30_000, 'the reconnect');
    expect(names(manager)).toEqual(['mcp_flaky_lookup']);
    expect(changes).toEqual([[], ['mcp_flaky_lookup']]);
  });

  it('lists the tools of a server without listChanged again at the start of a turn', async () => {
    const flaky = flakyServer(['lookup']);
    manager = new McpManager(folder);
    await manager.apply(McpSettingsSchema.parse({ servers: { flaky: flaky.config } }));
    writeFileSync(flaky.toolsFile, 'lookup\nsummarise');
    // a list a moment old is kept (each step of a flow would otherwise ask)
    await manager.refreshTools();
    expect(names(manager)).toEqual(['mcp_flaky_lookup']);
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    await manager.refreshTools();
    expect(names(manager)).toEqual(['mcp_flaky_lookup', 'mcp_flaky_summarise']);
  });

  it('tells the model when a server went down and when it is back', async () => {
    const flaky = flakyServer(['lookup']);
    const seen: { tools: string[]; messages: string }[] = [];
    const script = async (request: ScriptRequest) => {
      seen.push({
        tools: ((request.body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name),
        messages: JSON.stringify(request.body.messages),
      });
      const mcp = sessionMcp.manager(sessionId)!;
      if (request.index === 0) {
        writeFileSync(flaky.down, '');
        process.kill(mcp.status('flaky')!.pid!, 'SIGKILL');
        await waitFor(() => mcp.status('flaky')?.status === 'failed', 10_000, 'the server to be seen down');
        return { toolCalls: [{ name: 'noop', arguments: '{}' }] };
      }
      if (request.index === 1) {
        rmSync(flaky.down);
        await waitFor(() => mcp.status('flaky')?.status === 'connected', 30_000, 'the reconnect');
        return { toolCalls: [{ name: 'noop', arguments: '{}' }] };
      }
      return { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] };
    };
    let sessionId = '';
    const sessionMcp = new SessionMcp(folder);
    harness = await startCoreHarness(script, {
      settings: { mcp: { servers: { flaky: flaky.config } } },
      service: {
        extraTools: sessionMcp.extraTools,
        prepareRun: async ({ session }) => void (await sessionMcp.ready(session)),
      },
    });
    const started = harness.service.start({ task: 'Look it up' });
    sessionId = started.sessionId;
    expect((await started.done).status).toBe('finished');
    expect(seen[0]!.tools).toContain('mcp_flaky_lookup');
    expect(seen[1]!.tools).not.toContain('mcp_flaky_lookup');
    expect(seen[1]!.messages).toContain(
      'MCP server \\"flaky\\" is not available now: its tools (mcp_flaky_lookup) were removed until it reconnects.',
    );
    expect(seen[2]!.tools).toContain('mcp_flaky_lookup');
    expect(seen[2]!.messages).toContain(
      'MCP server \\"flaky\\" is connected again: its tools (mcp_flaky_lookup) are available.',
    );
  });
});
