import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { McpSettingsSchema, type McpSettings } from '../../src/shared/settings/mcp-settings.js';
import type { AnyTool } from '../../src/main/tool/tool.js';
import { createToolContext } from '../support/tool-context.js';
import {
  EVERYTHING_ENTRY,
  FILESYSTEM_ENTRY,
  startEverythingHttp,
  type RunningServer,
} from './support/reference-servers.js';
import { waitFor } from '../support/wait-for.js';

type ServerInput = Record<string, Record<string, unknown>>;

const managers: McpManager[] = [];
const httpServers: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(managers.splice(0).map((manager) => manager.close()));
  await Promise.all(httpServers.splice(0).map((server) => server.stop()));
});

function settings(servers: ServerInput): McpSettings {
  return McpSettingsSchema.parse({ servers });
}

async function startManager(servers: ServerInput): Promise<{ manager: McpManager; logDir: string }> {
  const logDir = mkdtempSync(join(tmpdir(), 'manus-mcp-logs-'));
  const manager = new McpManager(logDir);
  managers.push(manager);
  await manager.apply(settings(servers));
  return { manager, logDir };
}

function toolNamed(manager: McpManager, name: string): AnyTool {
  const tool = manager.mcpTools().find((candidate) => candidate.name === name);
  if (!tool)
    throw new Error(
      `no tool ${name} among ${manager
        .mcpTools()
        .map((t) => t.name)
        .join(', ')}`,
    );
  return tool;
}

function call(manager: McpManager, name: string, args: Record<string, unknown> = {}) {
  return toolNamed(manager, name).execute(args, createToolContext());
}

const everythingStdio = { type: 'stdio', command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] };

describe('MCP client against server-everything', () => {
  it('connects over stdio, lists tools, prompts and resources, and calls text, image and resource tools', async () => {
    const { manager, logDir } = await startManager({ everything: everythingStdio });
    const status = manager.status('everything');
    expect(status?.status, status?.error).toBe('connected');
    expect(status?.prompts.length).toBeGreaterThan(0);
    expect(status?.resources.length).toBeGreaterThan(0);

    const names = manager.mcpTools().map((tool) => tool.name);
    expect(names).toContain('mcp_everything_echo');
    expect(names).toContain('mcp_everything_get-tiny-image');
    for (const name of names) expect(name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);

    const echo = toolNamed(manager, 'mcp_everything_echo');
    expect(echo.inputJsonSchema?.properties).toHaveProperty('message');
    expect((await call(manager, 'mcp_everything_echo', { message: 'hello there' })).output).toBe('Echo: hello there');

    const image = await call(manager, 'mcp_everything_get-tiny-image');
    expect(image.images).toHaveLength(1);
    expect(image.images?.[0].mimeType).toBe('image/png');
    expect(
      Buffer.from(image.images?.[0].data ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(toolNamed(manager, 'mcp_everything_get-tiny-image').risk).toBe('read');

    const links = await call(manager, 'mcp_everything_get-resource-links', { count: 2 });
    expect(links.output).toMatch(/\[resource link .+ demo:\/\/resource\//);

    const embedded = await call(manager, 'mcp_everything_get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    expect(embedded.output).toMatch(
      /\[resource demo:\/\/resource\/static\/document\/1|\[resource demo:\/\/resource\/dynamic\/text\/1/,
    );

    const invalid = await call(manager, 'mcp_everything_get-sum', { a: 'not a number' });
    expect(invalid.error).toBeTruthy();
    expect(existsSync(join(logDir, 'mcp-everything.log'))).toBe(true);
    await waitFor(
      () => readFileSync(join(logDir, 'mcp-everything.log'), 'utf8').includes('Starting default (STDIO) server'),
      5_000,
      "the server's stderr in its log",
    );
  });

  it('reports the progress of a long call as tool progress events', async () => {
    const { manager } = await startManager({ everything: everythingStdio });
    const ctx = createToolContext();
    const tool = toolNamed(manager, 'mcp_everything_trigger-long-running-operation');
    const result = await tool.execute({ duration: 1, steps: 2 }, ctx);
    expect(result.output).toMatch(/Long running operation completed/);
    // server-everything also logs now and then: its log lines ("[level] ...") may come in between
    const progress = ctx.events.flatMap((event) =>
      event.type === 'tool' && event.progress && !event.progress.startsWith('[') ? [event.progress] : [],
    );
    // the SDK may drop the last notification when the result arrives in the same read
    expect(progress[0]).toBe('1/2\n');
    expect(progress.every((line) => /^[12]\/2\n$/.test(line))).toBe(true);
    expect(ctx.events[0]).toMatchObject({ type: 'tool', callId: ctx.callId, status: 'calling', name: tool.name });
  });

  it('passes the configured env to a stdio server', async () => {
    const { manager } = await startManager({
      everything: { ...everythingStdio, env: { MANUS_PROBE: 'reached-the-server' } },
    });
    const env = await call(manager, 'mcp_everything_get-env');
    expect(JSON.parse(env.output ?? '{}').MANUS_PROBE).toBe('reached-the-server');
  });

  it('connects over streamable HTTP and calls tools', async () => {
    const server = await startEverythingHttp('streamableHttp');
    httpServers.push(server);
    const { manager } = await startManager({ remote: { type: 'http', url: `http://127.0.0.1:${server.port}/mcp` } });
    expect(manager.status('remote')?.status, manager.status('remote')?.error).toBe('connected');
    expect((await call(manager, 'mcp_remote_echo', { message: 'over http' })).output).toBe('Echo: over http');
    expect((await call(manager, 'mcp_remote_get-tiny-image')).images).toHaveLength(1);
  });

  it('connects over SSE and calls tools', async () => {
    const server = await startEverythingHttp('sse');
    httpServers.push(server);
    const { manager } = await startManager({ old: { type: 'sse', url: `http://127.0.0.1:${server.port}/sse` } });
    expect(manager.status('old')?.status, manager.status('old')?.error).toBe('connected');
    expect((await call(manager, 'mcp_old_echo', { message: 'over sse' })).output).toBe('Echo: over sse');
    expect((await call(manager, 'mcp_old_get-tiny-image')).images?.[0].mimeType).toBe('image/png');
  });
});

describe('MCP client against server-filesystem', () => {
  it('reads, writes and lists a temp folder over stdio', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'manus-mcp-fs-'));
    writeFileSync(join(dir, 'notes.txt'), 'first line\nsecond line\n');
    const { manager } = await startManager({
      files: { type: 'stdio', command: 'node', args: [FILESYSTEM_ENTRY, dir] },
    });
    expect(manager.status('files')?.status, manager.status('files')?.error).toBe('connected');

    const read = await call(manager, 'mcp_files_read_text_file', { path: join(dir, 'notes.txt') });
    expect(read.output).toContain('second line');
    const written = await call(manager, 'mcp_files_write_file', {
      path: join(dir, 'out.md'),
      content: '# written by MCP',
    });
    expect(written.error).toBeUndefined();
    expect(readFileSync(join(dir, 'out.md'), 'utf8')).toBe('# written by MCP');
    const listing = await call(manager, 'mcp_files_list_directory', { path: dir });
    expect(listing.output).toContain('[FILE] out.md');
    expect(toolNamed(manager, 'mcp_files_write_file').risk).toBe('execute');

    const outside = await call(manager, 'mcp_files_read_text_file', { path: '/etc/hostname' });
    expect(outside.error).toMatch(/denied|outside/i);
  });
});

describe('MCP client failures', () => {
  it('reports a command that does not exist while another server works', async () => {
    const { manager } = await startManager({
      broken: { type: 'stdio', command: 'manus-no-such-mcp-server-binary' },
      everything: everythingStdio,
    });
    const broken = manager.status('broken');
    expect(broken?.status).toBe('failed');
    expect(broken?.error).toMatch(/"manus-no-such-mcp-server-binary" was not found on PATH/);
    expect(manager.status('everything')?.status).toBe('connected');
    expect(manager.mcpTools().every((tool) => tool.name.startsWith('mcp_everything_'))).toBe(true);
  });

  it('fails a call readably when the server is killed mid-call, then reconnects', async () => {
    const { manager } = await startManager({ everything: everythingStdio });
    const pid = manager.status('everything')?.pid;
    expect(pid).toBeGreaterThan(0);
    const pending = call(manager, 'mcp_everything_trigger-long-running-operation', { duration: 5, steps: 5 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    process.kill(pid as number, 'SIGKILL');
    const result = await pending;
    expect(result.error).toMatch(/MCP server "everything" stopped during the call to "trigger-long-running-operation"/);

    await waitFor(() => manager.status('everything')?.status === 'connected', 20_000, 'reconnect');
    expect(manager.status('everything')?.pid).not.toBe(pid);
    expect((await call(manager, 'mcp_everything_echo', { message: 'back again' })).output).toBe('Echo: back again');
  });

  it('notices a remote server that went away and reconnects when it is back', async () => {
    const first = await startEverythingHttp('streamableHttp');
    const { manager } = await startManager({ remote: { type: 'http', url: `http://127.0.0.1:${first.port}/mcp` } });
    expect(manager.status('remote')?.status).toBe('connected');
    await first.stop();

    const failed = await call(manager, 'mcp_remote_echo', { message: 'hello?' });
    expect(failed.error).toMatch(/MCP tool "echo" on server "remote" failed: /);
    await waitFor(() => manager.status('remote')?.status !== 'connected', 15_000, 'the outage to be noticed');
    expect(manager.status('remote')?.error).toBeTruthy();

    const second = await startEverythingHttp('streamableHttp', first.port);
    httpServers.push(second);
    await waitFor(() => manager.status('remote')?.status === 'connected', 30_000, 'reconnect');
    expect((await call(manager, 'mcp_remote_echo', { message: 'back' })).output).toBe('Echo: back');
  });

  it('cancels a call when the run is aborted, leaving the server usable', async () => {
    const { manager } = await startManager({ everything: everythingStdio });
    const ctx = createToolContext();
    const pending = toolNamed(manager, 'mcp_everything_trigger-long-running-operation').execute(
      { duration: 5, steps: 5 },
      ctx,
    );
    setTimeout(() => ctx.abort.abort(), 300);
    // the operation takes 5 s: without the cancel it would end in a result, not this error
    expect((await pending).error).toBe('The call to "trigger-long-running-operation" was cancelled.');
    expect(manager.status('everything')?.status).toBe('connected');
    expect((await call(manager, 'mcp_everything_echo', { message: 'still here' })).output).toBe('Echo: still here');
  });

  it('times out a call to a hung server with a readable message and restarts it', async () => {
    const { manager } = await startManager({ everything: { ...everythingStdio, timeoutMs: 1_500 } });
    const pid = manager.status('everything')?.pid as number;
    process.kill(pid, 'SIGSTOP');
    try {
      const result = await call(manager, 'mcp_everything_echo', { message: 'anyone?' });
      expect(result.error).toMatch(/MCP server "everything" did not answer "echo" within 2 s/);
      await waitFor(() => manager.status('everything')?.status !== 'connected', 10_000, 'hung server noticed');
      await waitFor(
        () => manager.status('everything')?.status === 'connected' && manager.status('everything')?.pid !== pid,
        30_000,
        'restart of the hung server',
      );
      expect((await call(manager, 'mcp_everything_echo', { message: 'restarted' })).output).toBe('Echo: restarted');
    } finally {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone: the restart killed it
      }
    }
  });
});

describe('MCP servers at runtime', () => {
  it('updates the tool list on disable, enable, add and remove', async () => {
    const { manager } = await startManager({ everything: everythingStdio });
    const seen: string[][] = [];
    manager.onToolsChanged((tools) => seen.push(tools.map((tool) => tool.name)));
    const count = manager.mcpTools().length;
    expect(count).toBeGreaterThan(5);

    await manager.setEnabled('everything', false);
    expect(manager.mcpTools()).toHaveLength(0);
    expect(manager.status('everything')?.status).toBe('disabled');

    await manager.setEnabled('everything', true);
    expect(manager.mcpTools()).toHaveLength(count);

    const dir = mkdtempSync(join(tmpdir(), 'manus-mcp-fs-'));
    await manager.add(
      'files',
      McpSettingsSchema.shape.servers.parse({ f: { type: 'stdio', command: 'node', args: [FILESYSTEM_ENTRY, dir] } }).f,
    );
    expect(manager.mcpTools().some((tool) => tool.name === 'mcp_files_list_directory')).toBe(true);

    await manager.remove('everything');
    expect(manager.mcpTools().every((tool) => tool.name.startsWith('mcp_files_'))).toBe(true);
    expect(manager.status('everything')).toBeUndefined();
    expect(seen.length).toBeGreaterThanOrEqual(4);
    expect(seen.at(-1)?.every((name) => name.startsWith('mcp_files_'))).toBe(true);
  });
});
