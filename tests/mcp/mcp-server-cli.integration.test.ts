import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { freePort, manusEnv } from './support/reference-servers.js';
import { CLI_PATH } from '../support/cli.js';
import { startServerCli } from '../support/server-cli.js';
import { rawRequest } from '../support/http-probe.js';
import { parseMcpConfigFile } from '../../src/main/mcp/config-file.js';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

let llm: FakeLlm;
let dataDir: string;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-mcp-server-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  return (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n');
}

describe('manus mcp-server', () => {
  it('serves the tools and run_task over stdio to the SDK client', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'manus-mcp-server-ws-'));
    const client = new Client({ name: 'test', version: '1' });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI_PATH, 'mcp-server', '--workspace', workspace],
      env: manusEnv(dataDir, llm.baseUrl),
      stderr: 'pipe',
    });
    await client.connect(transport);
    cleanups.push(() => client.close());

    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['bash', 'python_execute', 'str_replace_editor', 'run_task']));
    expect(names).not.toContain('terminate');
    const editor = tools.find((tool) => tool.name === 'str_replace_editor');
    expect(editor?.inputSchema.properties).toHaveProperty('command');

    const created = await client.callTool({
      name: 'str_replace_editor',
      arguments: { command: 'create', path: '/workspace/hello.txt', file_text: 'hello from MCP\n' },
    });
    expect(created.isError, textOf(created)).toBe(false);
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toBe('hello from MCP\n');

    llm.setScript(
      sequence(
        { toolCalls: [call('str_replace_editor', { command: 'view', path: '/workspace' })] },
        { text: 'The answer is 42.', toolCalls: [call('terminate', { status: 'success' })] },
      ),
    );
    const progress: string[] = [];
    const run = await client.callTool(
      { name: 'run_task', arguments: { task: 'What is six times seven?' } },
      undefined,
      {
        onprogress: (update) => progress.push(update.message ?? ''),
        timeout: 60_000,
      },
    );
    expect(run.isError).toBe(false);
    expect(textOf(run)).toMatch(/The answer is 42\./);
    expect(textOf(run)).toMatch(/\(session [\w-]+, finished\)/);
    // notifications sent right before the result may be dropped by the client as the call completes: check an early one
    expect(progress.some((line) => /calling str_replace_editor/.test(line))).toBe(true);
    expect(JSON.stringify(llm.chatRequests.at(-1)?.body.messages)).toContain('What is six times seven?');
  });

  it('serves over HTTP on 127.0.0.1 with a bearer token and refuses a wrong one', async () => {
    const port = await freePort();
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI_PATH, 'mcp-server', '--transport', 'http', '--port', String(port)],
      {
        env: { ...manusEnv(dataDir, llm.baseUrl), MANUS_MCP_TOKEN: 'token-from-env-0123' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    );
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      child.stderr?.on('data', (chunk) => {
        seen += chunk;
        if (seen.includes('Manus MCP server on')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`mcp-server exited ${code}: ${seen}`)));
    });
    const url = new URL(`http://127.0.0.1:${port}/mcp`);

    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StreamableHTTPClientTransport(url, {
        requestInit: { headers: { Authorization: 'Bearer token-from-env-0123' } },
      }),
    );
    cleanups.push(() => client.close());
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('run_task');

    const intruder = new Client({ name: 'intruder', version: '1' });
    await expect(
      intruder.connect(
        new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: 'Bearer guessed' } } }),
      ),
    ).rejects.toThrow(/401|Unauthorized|bearer/i);
  });

  it('without MANUS_MCP_TOKEN prints a random token once; an mcpServers config with that header connects', async () => {
    const port = await freePort();
    const env = manusEnv(dataDir, llm.baseUrl);
    delete env.MANUS_MCP_TOKEN;
    const server = await startServerCli(
      ['mcp-server', '--transport', 'http', '--port', String(port)],
      env,
      /^Authorization: Bearer \S+$/m,
    );
    cleanups.push(async () => void (await server.stop()));
    const token = /^Authorization: Bearer (\S+)$/m.exec(server.stderr())![1];
    expect(server.stderr().split(token).length - 1).toBe(1);
    expect(server.stdout()).toBe('');

    // the config a person pastes into Claude Desktop, Cursor or `manus mcp import`
    const { servers: config } = parseMcpConfigFile(
      JSON.stringify({
        mcpServers: {
          manus: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { Authorization: `Bearer ${token}` } },
        },
      }),
    );
    const manager = new McpManager(mkdtempSync(join(tmpdir(), 'manus-mcp-logs-')));
    cleanups.push(() => manager.close());
    await manager.apply({ servers: config });
    expect(manager.status('manus')?.status).toBe('connected');
    expect(manager.mcpTools().map((tool) => tool.name)).toContain('mcp_manus_run_task');

    const fromPage = await rawRequest({
      port,
      method: 'POST',
      path: '/mcp',
      headers: {
        Host: `127.0.0.1:${port}`,
        Origin: 'http://evil.example',
        Authorization: `Bearer ${token}`,
        'Content-Type': 'application/json',
      },
      body: '{}',
    });
    expect(fromPage.status).toBe(403);
    expect(JSON.parse(fromPage.body)).toMatchObject({ error: { code: 'foreign_origin' } });

    // a page on this machine (the conformance suite's DNS-rebinding scenario) is let through to the token check
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
    });
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000', 'https://localhost']) {
      const local = (authorization?: string) =>
        rawRequest({
          port,
          method: 'POST',
          path: '/mcp',
          headers: {
            Host: `localhost:${port}`,
            Origin: origin,
            ...(authorization ? { Authorization: authorization } : {}),
            'Content-Type': 'application/json',
            Accept: 'application/json, text/event-stream',
          },
          body: initialize,
        });
      expect((await local(`Bearer ${token}`)).status, origin).toBe(200);
      expect((await local()).status, origin).toBe(401);
    }
    for (const origin of ['http://localhost.evil.example', 'http://127.0.0.2:80', 'null', 'file://']) {
      const foreign = await rawRequest({
        port,
        method: 'POST',
        path: '/mcp',
        headers: { Host: `localhost:${port}`, Origin: origin, Authorization: `Bearer ${token}` },
        body: '{}',
      });
      expect(foreign.status, origin).toBe(403);
    }
  });
});
