import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_REPLY_CHARS } from '../../src/shared/settings/llm-config.js';
import { MAX_LOG_MESSAGE_CHARS } from '../../src/main/mcp/server-log.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';
import { startAskingHttpServer, type AskingHttpServer } from '../mcp/support/asking-http.js';
import { createHostileServer } from '../mcp/fixtures/hostile-server.js';

const MEGABYTE = 1024 * 1024;
const finish = { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };

let llm: FakeLlm;
let hostile: AskingHttpServer;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFakeLlm();
  hostile = await startAskingHttpServer(createHostileServer);
});
afterAll(async () => {
  await hostile.close();
  await llm.close();
});
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-hostile-'));
  env = cliEnv(dataDir, llm.baseUrl);
  return () => rmSync(dataDir, { recursive: true, force: true });
});

function bytesUnder(folder: string): number {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** The model calls the hostile server's `tool` once, then finishes; sampling requests are answered "fine". */
async function runWithHostileServer(tool: string, args: object, runFlags: string[] = []) {
  await runCli(['mcp', 'add', 'hostile', '--url', hostile.url], env);
  let turn = 0;
  llm.setScript(({ body }) => {
    if (!body.tools) return { text: 'fine' };
    turn++;
    return turn === 1 ? { text: 'Calling.', toolCalls: [{ name: `mcp_hostile_${tool}`, arguments: args }] } : finish;
  });
  return runCli(['run', ...runFlags, `Use ${tool}`], env, { timeoutMs: 120_000 });
}

describe('manus run against a hostile model or MCP server', { timeout: 180_000 }, () => {
  it('goes on when tool-call arguments are nested 100,000 deep: the model reads a tool error and finishes', async () => {
    const deep = `{"status": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    llm.setScript(sequence({ text: 'Deep.', toolCalls: [{ name: 'terminate', arguments: deep }] }, finish));
    const result = await runCli(['run', 'Go deep'], env);
    expect(result.stderr).not.toContain('Maximum call stack size exceeded');
    expect(result.code, result.stderr).toBe(0);
    const lastRequest = llm.chatRequests.at(-1)?.body;
    const toolMessage = lastRequest.messages.findLast((message: { role: string }) => message.role === 'tool');
    expect(toolMessage.content).toContain('The arguments of terminate cannot be read (they nest 100001 levels deep');
  });

  it('cuts a reply past the default size limit and fails the run with a clear error, not a crash', async () => {
    // one word: the fake server sends it in two halves, so the whole reply crosses the limit at once
    llm.setScript(sequence({ text: 'x'.repeat(DEFAULT_MAX_REPLY_CHARS + 1_000) }));
    const result = await runCli(['run', 'Talk a lot'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `the reply went past ${DEFAULT_MAX_REPLY_CHARS} characters; the stream was cut there`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    // what was streamed before the cut is not printed whole either
    expect(result.stdout.length).toBeLessThan(DEFAULT_MAX_REPLY_CHARS);
  });

  it('keeps the output, the log and the database small when a remote server floods 50 log messages of 1 MB', async () => {
    // --json prints every event, the tool card's log lines included
    const result = await runWithHostileServer('flood_logs', { count: 50 }, ['--json']);
    expect(result.code, result.stderr).toBe(0);
    const printed = result.stdout.length + result.stderr.length;
    // 50 MB came in: what is printed is 50 clipped lines, each in its event's JSON, and the rest of the run
    expect(printed).toBeLessThan(50 * (MAX_LOG_MESSAGE_CHARS + 1_000));
    expect(bytesUnder(dataDir)).toBeLessThan(10 * MEGABYTE);
  });

  it('refuses sampling when nobody can be asked, telling the server why; the model is never called for it', async () => {
    const result = await runWithHostileServer('sample_many', { count: 3 });
    expect(result.code, result.stderr).toBe(0);
    expect(llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(0);
    const lastRequest = llm.chatRequests.at(-1)?.body;
    const toolMessage = lastRequest.messages.findLast((message: { role: string }) => message.role === 'tool');
    expect(toolMessage.content).toContain(
      'answered 0, refused 3; first refusal: MCP error -1: The sampling request was declined: it needs approval and nobody can give it here',
    );
  });
});
