/**
 * MCP and A2A overhead on this machine: connecting to server-everything, tool-call round trips over stdio,
 * streamable HTTP and SSE (text and image results), the Manus MCP server over HTTP, and an A2A message/send
 * against the scripted fake LLM (so the time is ours, not a model's).
 * Run: npx tsx --import ./scripts/raw-text/register.mjs bench/mcp/mcp-bench.ts
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Role } from '@a2a-js/sdk';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';
import { createManusMcpServer } from '../../src/main/mcp/server/manus-mcp-server.js';
import { serveMcpOverHttp } from '../../src/main/mcp/server/serve.js';
import { startA2aServer } from '../../src/main/a2a/a2a-server.js';
import { Store } from '../../src/main/store/store.js';
import { defineTool, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';
import { sequence } from '../../tests/support/fake-llm/index.js';
import { startCoreHarness } from '../../tests/support/core-harness.js';
import { createToolContext } from '../../tests/support/tool-context.js';
import { a2aClient } from '../../tests/support/a2a-client.js';
import { EVERYTHING_ENTRY, startEverythingHttp } from '../../tests/mcp/support/reference-servers.js';

const CALLS = 200;
const CONNECTS = 8;
const A2A_SENDS = 30;

interface Row {
  name: string;
  runs: number;
  p50: number;
  p99: number;
  max: number;
}

function percentile(sorted: number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))];
}

async function measure(name: string, runs: number, work: () => Promise<unknown>): Promise<Row> {
  await work(); // warm-up run, not measured
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { name, runs, p50: percentile(times, 0.5), p99: percentile(times, 0.99), max: times.at(-1) ?? 0 };
}

async function expectOk(result: Promise<{ error?: string }>): Promise<void> {
  const { error } = await result;
  if (error) throw new Error(error);
}

const rows: Row[] = [];
const logDir = mkdtempSync(join(tmpdir(), 'manus-bench-mcp-'));
const stdio = { type: 'stdio', command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] };

rows.push(
  await measure('connect stdio server-everything (spawn+init+list)', CONNECTS, async () => {
    const manager = new McpManager(logDir);
    await manager.apply(McpSettingsSchema.parse({ servers: { everything: stdio } }));
    if (manager.status('everything')?.status !== 'connected') throw new Error('not connected');
    await manager.close();
  }),
);

const http = await startEverythingHttp('streamableHttp');
const sse = await startEverythingHttp('sse');
const manager = new McpManager(logDir);
await manager.apply(
  McpSettingsSchema.parse({
    servers: {
      local: stdio,
      web: { type: 'http', url: `http://127.0.0.1:${http.port}/mcp` },
      old: { type: 'sse', url: `http://127.0.0.1:${sse.port}/sse` },
    },
  }),
);
const ctx = createToolContext();
const tool = (name: string) => manager.mcpTools().find((candidate) => candidate.name === name) as AnyTool;
for (const [server, label] of [
  ['local', 'stdio'],
  ['web', 'streamable HTTP'],
  ['old', 'SSE'],
] as const) {
  const echo = tool(`mcp_${server}_echo`);
  rows.push(await measure(`echo over ${label}`, CALLS, () => expectOk(echo.execute({ message: 'ping' }, ctx))));
}
const image = tool('mcp_local_get-tiny-image');
rows.push(await measure('image result over stdio', CALLS, () => expectOk(image.execute({}, ctx))));
await manager.close();
await http.stop();
await sse.stop();

const noop = defineTool({
  name: 'noop',
  kind: 'generic',
  description: 'returns its input',
  parameters: z.object({ text: z.string() }),
  risk: 'read',
  execute: async (args) => toolOutput(args.text),
}) as AnyTool;
const { session } = createToolContext({
  sessionId: 'bench',
  workspace: mkdtempSync(join(tmpdir(), 'manus-bench-ws-')),
});
const served = await serveMcpOverHttp(() => createManusMcpServer({ tools: [noop], session }), {
  port: 0,
  token: 'bench-token-0123456789',
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { Authorization: 'Bearer bench-token-0123456789' } },
  }),
);
rows.push(
  await measure('Manus MCP server tool call over HTTP', CALLS, () =>
    client.callTool({ name: 'noop', arguments: { text: 'x' } }),
  ),
);
await client.close();
await served.close();

const finish = { text: 'done', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] };
const core = await startCoreHarness(sequence(finish));
const a2aToken = 'bench-token-0123456789';
const a2a = await startA2aServer({ service: core.service, db: (core.store as Store).db, port: 0, token: a2aToken });
const agent = await a2aClient(a2a.url, a2aToken);
rows.push(
  await measure('A2A message/send, whole agent run (fake LLM)', A2A_SENDS, () =>
    agent.sendMessage({
      tenant: '',
      message: {
        messageId: randomUUID(),
        contextId: '',
        taskId: '',
        role: Role.ROLE_USER,
        parts: [
          { content: { $case: 'text', value: 'hi' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
        ],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: undefined,
      metadata: undefined,
    }),
  ),
);
await a2a.close();
await core.close();

const width = Math.max(...rows.map((row) => row.name.length));
console.log(`${'measure'.padEnd(width)}  runs   p50 ms   p99 ms   max ms`);
for (const row of rows) {
  const ms = (value: number) => value.toFixed(2).padStart(8);
  console.log(
    `${row.name.padEnd(width)}  ${String(row.runs).padStart(4)} ${ms(row.p50)} ${ms(row.p99)} ${ms(row.max)}`,
  );
}
