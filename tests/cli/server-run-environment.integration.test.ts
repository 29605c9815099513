import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startFakeLlm, type FakeLlm, type ScriptRequest } from '../support/fake-llm/index.js';
import { CLI_PATH, spawnCli } from '../support/cli.js';
import { startServerCli, type ServerCli } from '../support/server-cli.js';
import { a2aClient, sendText } from '../support/a2a-client.js';
import { waitFor } from '../support/wait-for.js';

/** the model the flag names; the environment names another, and points at an endpoint nothing listens on */
const FLAG_MODEL = 'model-from-the-flag';
const DEAD_ENDPOINT = 'http://127.0.0.1:9/v1';
const TOKEN = 'run-environment-token-0123456789';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

/** Asks for `pwd` through bash, then ends with what it printed: a local sandbox runs in the host's workspace folder. */
function pwdThenFinish({ body }: ScriptRequest) {
  const toolReply = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool');
  if (!toolReply) return { toolCalls: [call('bash', { command: 'pwd' })] };
  return { text: `pwd said: ${toolReply.content}`, toolCalls: [call('terminate', { status: 'success' })] };
}

let llm: FakeLlm;
let dataDir: string;
const started: ServerCli[] = [];
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  llm = await startFakeLlm(pwdThenFinish);
  dataDir = mkdtempSync(join(tmpdir(), 'manus-run-env-'));
});
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The environment a person has set (model and endpoint); the flags below must win over it. */
function environment(): Record<string, string> {
  return {
    MANUS_DATA_DIR: dataDir,
    MANUS_LLM_BASE_URL: DEAD_ENDPOINT,
    MANUS_LLM_API_KEY: 'sk-test',
    MANUS_LLM_MODEL: 'model-from-the-environment',
  };
}

function flags(): string[] {
  return ['--model', FLAG_MODEL, '--base-url', llm.baseUrl, '--sandbox', 'local'];
}

/** The requests the scripted model got since `from`: all for the flag's model, and the bash output from the host. */
function expectRunWithFlags(from: number): void {
  const requests = llm.chatRequests.slice(from);
  // the endpoint of the flag is the only one that answers: a request here is the flag's base URL at work
  expect(requests.length).toBeGreaterThanOrEqual(2);
  for (const request of requests) expect(request.body.model).toBe(FLAG_MODEL);
  const toolReply = JSON.stringify(requests.at(-1)!.body.messages);
  // a Docker sandbox would print /workspace; the local one runs in the session's folder under the data folder
  expect(toolReply).toContain(dataDir);
  expect(toolReply).not.toContain('"/workspace');
}

describe('--model, --base-url and --sandbox on the server commands', () => {
  it('manus serve runs the sessions it starts with them', async () => {
    const from = llm.chatRequests.length;
    const server = await startServerCli(['serve', '--port', '0', ...flags()], environment(), /serving on (\S+)/);
    started.push(server);
    const url = new URL(/serving on (\S+)/.exec(server.stdout())![1]);
    const token = url.searchParams.get('token')!;
    const invoke = async (name: string, payload: unknown) => {
      const response = await fetch(`${url.origin}/api/${name}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify(payload),
      });
      const reply = (await response.json()) as { ok: boolean; value: unknown; error?: unknown };
      if (!reply.ok) throw new Error(JSON.stringify(reply.error));
      return reply.value as Record<string, unknown>;
    };
    const { sessionId } = (await invoke('startTask', { task: 'Where do you run?' })) as { sessionId: string };
    await waitFor(
      async () => ((await invoke('getSession', { sessionId })).session as { status: string }).status === 'finished',
      60_000,
      'the served session to finish',
    );
    expectRunWithFlags(from);
    expect((await invoke('appInfo', {})).defaultModel).toBe('override');
  });

  it('manus a2a runs the tasks it is sent with them', async () => {
    const from = llm.chatRequests.length;
    const server = await startServerCli(
      ['a2a', '--port', '0', '--token', TOKEN, ...flags()],
      environment(),
      /Manus A2A agent on (\S+) /,
    );
    started.push(server);
    const baseUrl = /Manus A2A agent on (\S+) /.exec(server.stdout())![1];
    const client = await a2aClient(baseUrl, TOKEN);
    const task = await sendText(client, 'Where do you run?');
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expectRunWithFlags(from);
  });

  it('manus mcp-server runs run_task and its own tools with them', async () => {
    const from = llm.chatRequests.length;
    const workspace = mkdtempSync(join(dataDir, 'mcp-ws-'));
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI_PATH, 'mcp-server', '--workspace', workspace, ...flags()],
        env: { ...process.env, ...environment() } as Record<string, string>,
        stderr: 'pipe',
      }),
    );
    cleanups.push(() => client.close());
    const run = await client.callTool({ name: 'run_task', arguments: { task: 'Where do you run?' } }, undefined, {
      timeout: 60_000,
    });
    expect(run.isError).toBe(false);
    expectRunWithFlags(from);

    // the tools it serves itself run in the sandbox the flag chose: the host folder, not /workspace
    const pwd = await client.callTool({ name: 'bash', arguments: { command: 'pwd' } }, undefined, { timeout: 60_000 });
    expect(JSON.stringify(pwd.content)).toContain(workspace);
  });

  it('the server commands list the flags in their help', async () => {
    for (const command of ['serve', 'a2a', 'mcp-server']) {
      const child = spawnCli([command, '--help']);
      let help = '';
      child.stdout?.on('data', (chunk) => (help += chunk));
      await new Promise((resolve) => child.once('close', resolve));
      for (const flag of ['--model <model>', '--base-url <url>', '--sandbox <mode>'])
        expect(help, command).toContain(flag);
    }
  });
});
