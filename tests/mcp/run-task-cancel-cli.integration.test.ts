import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { SessionInfo } from '../../src/shared/events.js';
import { startFakeLlm, type FakeLlm, type FakeReply, type ScriptRequest } from '../support/fake-llm/index.js';
import { CLI_PATH, runCli } from '../support/cli.js';
import { startServerCli } from '../support/server-cli.js';
import { waitFor } from '../support/wait-for.js';
import { manusEnv } from './support/reference-servers.js';

const TOKEN = 'cli-cancel-token-0123456789';

/** A model that would never stop: each reply calls a tool again. */
const endless = (request: ScriptRequest): FakeReply => ({
  delayMs: 100,
  toolCalls: [{ name: 'no_such_tool', arguments: { attempt: request.index } }],
});

let llm: FakeLlm;
let dataDir: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  llm = await startFakeLlm(endless);
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});
afterAll(async () => {
  await llm.close();
});

async function sessions(): Promise<SessionInfo[]> {
  return JSON.parse((await runCli(['sessions', 'list', '--json'], manusEnv(dataDir, llm.baseUrl))).stdout);
}

/** run_task is aborted by the client while its agent works; the session ends cancelled and the model hears no more. */
async function abortRunTask(transport: Transport): Promise<void> {
  const client = new Client({ name: 'cli-cancel-test', version: '1' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  const abort = new AbortController();
  const call = client.callTool({ name: 'run_task', arguments: { task: 'Keep going' } }, undefined, {
    signal: abort.signal,
    timeout: 120_000,
  });
  const rejected = expect(call).rejects.toThrow(/changed my mind/);
  const before = llm.chatRequests.length;
  await waitFor(() => llm.chatRequests.length >= before + 2, 30_000, 'the agent at work');
  abort.abort('changed my mind');
  await rejected;
  await waitFor(async () => (await sessions())[0]?.status === 'cancelled', 30_000, 'the session cancelled', 300);
  const settledAt = llm.chatRequests.length;
  await client.listTools();
  expect(llm.chatRequests.length).toBe(settledAt);
}

describe('manus mcp-server: cancelling run_task', { timeout: 180_000 }, () => {
  it('over stdio', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-mcp-cancel-'));
    await abortRunTask(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp-server'],
        env: manusEnv(dataDir, llm.baseUrl),
        stderr: 'pipe',
      }),
    );
  });

  it('over streamable HTTP', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-mcp-cancel-'));
    const server = await startServerCli(
      ['mcp-server', '--transport', 'http', '--port', '0'],
      { ...manusEnv(dataDir, llm.baseUrl), MANUS_MCP_TOKEN: TOKEN },
      /Manus MCP server on (http:\S+)/,
    );
    cleanups.push(() => server.stop());
    const url = /Manus MCP server on (http:\S+)/.exec(server.stderr())![1];
    await abortRunTask(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });
});
