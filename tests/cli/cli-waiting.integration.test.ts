import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TaskState } from '@a2a-js/sdk';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';
import { startServerCli } from '../support/server-cli.js';
import { a2aClient, sendText } from '../support/a2a-client.js';

const TOKEN = 'waiting-test-token-0123456789';
const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });

let llm: FakeLlm;
let dataDir: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-waiting-cli-'));
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a session waiting for an answer, seen from the CLI', () => {
  it('is `waiting` in sessions list and show while the A2A client is asked, and interrupted once its process is killed', async () => {
    llm.setScript(sequence({ toolCalls: [call('ask_human', { inquire: 'Which quarter?' })] }));
    const env = cliEnv(dataDir, llm.baseUrl);
    const server = await startServerCli(['a2a', '--port', '0', '--token', TOKEN], env, /Manus A2A agent on (\S+) /);
    try {
      const client = await a2aClient(/Manus A2A agent on (\S+) /.exec(server.stdout())![1], TOKEN);
      const task = await sendText(client, 'Summarise the sales');
      expect(task.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);

      const listed = await runCli(['sessions', 'list', '--json'], { MANUS_DATA_DIR: dataDir });
      const [session] = JSON.parse(listed.stdout) as { id: string; status: string }[];
      expect(session.status).toBe('waiting');
      const table = await runCli(['sessions', 'list'], { MANUS_DATA_DIR: dataDir });
      expect(table.stdout).toMatch(new RegExp(`${session.id}\\s+waiting\\s+agent`));
      const onlyWaiting = await runCli(['sessions', 'list', '--status', 'waiting'], { MANUS_DATA_DIR: dataDir });
      expect(onlyWaiting.stdout).toContain(session.id);
      const onlyRunning = await runCli(['sessions', 'list', '--status', 'running'], { MANUS_DATA_DIR: dataDir });
      expect(onlyRunning.stdout).not.toContain(session.id);
      const unknown = await runCli(['sessions', 'list', '--status', 'asleep'], { MANUS_DATA_DIR: dataDir });
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain('running, waiting, finished');
      const shown = await runCli(['sessions', 'show', session.id], { MANUS_DATA_DIR: dataDir });
      expect(shown.stdout).toContain('- Status: waiting');

      server.child.kill('SIGKILL');
      await server.stop();
      const after = await runCli(['sessions', 'list', '--json'], { MANUS_DATA_DIR: dataDir });
      expect(JSON.parse(after.stdout)[0]).toMatchObject({ id: session.id, status: 'interrupted' });
    } finally {
      await server.stop();
    }
  });
});
