import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Role, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { freePort, manusEnv } from '../mcp/support/reference-servers.js';
import { CLI_PATH } from '../support/cli.js';

let llm: FakeLlm;
let dataDir: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-a2a-cli-'));
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('manus a2a', () => {
  it('serves the agent on the given port until stopped', async () => {
    llm.setScript(
      sequence({ text: 'Served over A2A.', toolCalls: [{ name: 'terminate', arguments: '{"status":"success"}' }] }),
    );
    const port = await freePort();
    const child = spawn(process.execPath, [CLI_PATH, 'a2a', '--port', String(port)], {
      env: manusEnv(dataDir, llm.baseUrl),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await new Promise<void>((resolve, reject) => {
        let seen = '';
        const onData = (chunk: Buffer) => {
          seen += chunk;
          if (seen.includes('Manus A2A agent on')) resolve();
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        void exited.then((code) => reject(new Error(`manus a2a exited ${code}: ${seen}`)));
      });
      const client = await new ClientFactory().createFromUrl(`http://127.0.0.1:${port}`);
      expect((await client.getAgentCard()).name).toBe('Manus');
      const result = await client.sendMessage({
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
        configuration: undefined,
        metadata: undefined,
      });
      expect('status' in result && result.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
