import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory, type Client } from '@a2a-js/sdk/client';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { freePort, manusEnv } from '../mcp/support/reference-servers.js';
import { runCli } from '../support/cli.js';
import { a2aClient } from '../support/a2a-client.js';
import { startServerCli, type ServerCli } from '../support/server-cli.js';
import { canConnect, otherAddressOfThisMachine } from '../support/http-probe.js';
import { startReceiver } from '../support/webhook-receiver.js';
import { waitFor } from '../support/wait-for.js';

const READY = /Manus A2A agent on/;
/** the last line a start with a generated token prints */
const TOKEN_LINE = /^Authorization: Bearer (\S+)$/m;

let llm: FakeLlm;
let dataDir: string;
const started: ServerCli[] = [];
beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-a2a-cli-'));
});
afterEach(async () => {
  for (const server of started.splice(0)) await server.stop();
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `manus a2a` with the environment a person would have: no MANUS_A2A_TOKEN unless `env` sets one. */
async function startA2a(args: string[], env: Record<string, string> = {}, ready = TOKEN_LINE): Promise<ServerCli> {
  const base = manusEnv(dataDir, llm.baseUrl);
  delete base.MANUS_A2A_TOKEN;
  const server = await startServerCli(['a2a', ...args], { ...base, ...env }, ready);
  started.push(server);
  return server;
}

function sayHello(client: Client, webhookUrl?: string) {
  return client.sendMessage({
    tenant: '',
    message: {
      messageId: randomUUID(),
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        { content: { $case: 'text', value: 'Hello' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
      ],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: webhookUrl
      ? {
          acceptedOutputModes: [],
          taskPushNotificationConfig: {
            tenant: '',
            id: '',
            taskId: '',
            url: webhookUrl,
            token: 'webhook-token',
            authentication: undefined,
          },
          returnImmediately: false,
        }
      : undefined,
    metadata: undefined,
  });
}

describe('manus a2a', () => {
  it('serves the agent on loopback with a random token printed once on stderr, until stopped', async () => {
    llm.setScript(
      sequence({ text: 'Served over A2A.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] }),
    );
    const port = await freePort();
    const server = await startA2a(['--port', String(port)]);
    const token = TOKEN_LINE.exec(server.stderr())![1];
    expect(server.stdout()).not.toContain(token);
    expect(server.stderr().split(token).length - 1).toBe(1);
    expect(await canConnect(otherAddressOfThisMachine(), port)).toBe(false);

    const anonymous = await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}`);
    expect((await anonymous.getAgentCard()).name).toBe('Manus');
    await expect(sayHello(anonymous)).rejects.toThrow(/401|unauthorized/i);

    const result = await sayHello(await a2aClient(`http://127.0.0.1:${port}`, token));
    expect('status' in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(await server.stop()).toBe(0);
  });

  it('takes its token from MANUS_A2A_TOKEN and does not print it', async () => {
    const port = await freePort();
    const token = 'token-from-env-0123456789';
    const server = await startA2a(['--port', String(port)], { MANUS_A2A_TOKEN: token }, READY);
    expect(server.stdout() + server.stderr()).not.toContain(token);
    const client = await a2aClient(`http://127.0.0.1:${port}`, token);
    await expect(client.getTask({ tenant: '', id: 'no-such-task' })).rejects.toThrow(/not found/i);
    const wrong = await a2aClient(`http://127.0.0.1:${port}`, 'token-from-flag-0123456789');
    await expect(wrong.getTask({ tenant: '', id: 'no-such-task' })).rejects.toThrow(/401|unauthorized/i);
  });

  it('pushes task updates under the saved browser.allowPrivateNetwork, read at each push', async () => {
    llm.setScript(sequence({ text: 'Pushed.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] }));
    const receiver = await startReceiver();
    const env = manusEnv(dataDir, llm.baseUrl);
    try {
      const port = await freePort();
      const server = await startA2a(['--port', String(port)]);
      const client = await a2aClient(`http://127.0.0.1:${port}`, TOKEN_LINE.exec(server.stderr())![1]);
      const webhook = `http://127.0.0.1:${receiver.port}/hook`;

      await sayHello(client, webhook);
      await waitFor(() => server.stderr().includes(`Push notification to ${webhook} not sent`), 10_000, 'a refusal');
      expect(server.stderr()).toMatch(/not sent: .*browser\.allowPrivateNetwork/);
      expect(receiver.requests).toEqual([]);

      expect((await runCli(['config', 'set', 'browser.allowPrivateNetwork', 'true'], env)).code).toBe(0);
      await sayHello(client, webhook);
      await waitFor(() => receiver.requests.length > 0, 10_000, 'a push to arrive');
      expect(receiver.requests[0].headers['x-a2a-notification-token']).toBe('webhook-token');
    } finally {
      await runCli(['config', 'set', 'browser.allowPrivateNetwork', 'false'], env);
      await receiver.close();
    }
  });

  it('refuses a token too short to be a secret, and a --host that is not an address', async () => {
    const env = { ...manusEnv(dataDir, llm.baseUrl), MANUS_A2A_TOKEN: 'short' };
    const short = await runCli(['a2a', '--port', '0'], env);
    expect(short.code).not.toBe(0);
    expect(short.stderr).toMatch(/MANUS_A2A_TOKEN: a token needs at least 16 characters/);
    const flag = await runCli(['a2a', '--port', '0', '--token', 'short'], manusEnv(dataDir, llm.baseUrl));
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toMatch(/at least 16 characters/);
    const host = await runCli(['a2a', '--port', '0', '--host', 'evil.example'], manusEnv(dataDir, llm.baseUrl));
    expect(host.code).not.toBe(0);
    expect(host.stderr).toMatch(/give an IP address/);
  });

  it('listens beyond loopback only when told, with a warning, still requiring the token', async () => {
    const port = await freePort();
    const other = otherAddressOfThisMachine();
    const server = await startA2a(['--port', String(port), '--host', '0.0.0.0', '--allow-host', other]);
    expect(server.stderr()).toMatch(/warning: manus a2a listens on 0\.0\.0\.0: other machines can reach it/);
    const token = TOKEN_LINE.exec(server.stderr())![1];
    const anonymous = await new ClientFactory().createFromUrl(`http://${other}:${port}`);
    await expect(anonymous.getTask({ tenant: '', id: 'x' })).rejects.toThrow(/401|unauthorized/i);
    const client = await a2aClient(`http://${other}:${port}`, token);
    // the card sends other machines to the name they know the server by, not to 127.0.0.1
    expect((await client.getAgentCard()).supportedInterfaces[0]?.url).toBe(`http://${other}:${port}/a2a/jsonrpc`);
    await expect(client.getTask({ tenant: '', id: 'x' })).rejects.toThrow(/not found/i);
  });
});
