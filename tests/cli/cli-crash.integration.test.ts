import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, collect, runCli, spawnCli } from '../support/cli.js';

let llm: FakeLlm;
let dataDir: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-crash-'));
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a run killed with SIGKILL', () => {
  it('loses no event it had shown, and the session shows as interrupted on the next start', async () => {
    llm.setScript(
      sequence(
        {
          text: 'First I will draft.',
          toolCalls: [{ name: 'ask_human', arguments: '{"inquire":"which draft?"}' }],
        },
        { fault: 'hang' },
      ),
    );
    const env = cliEnv(dataDir, llm.baseUrl);
    const child = spawnCli(['run', '--json', 'Draft something'], env);
    child.stdin?.end();
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no tool call seen: ${stdout}`)), 20_000);
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
        if (stdout.includes('"status":"calling"')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    const exited = collect(child, 10_000);
    child.kill('SIGKILL');
    await exited;
    const shown = stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => CoreEventSchema.parse(JSON.parse(line)));
    const sessionId = shown[0].sessionId;

    const store = openStore(dataDir);
    const stored = store.listEvents(sessionId);
    expect(stored.map((e) => e.seq)).toEqual(stored.map((_, i) => i + 1));
    for (const event of shown) expect(stored.find((s) => s.seq === event.seq)).toEqual(event);
    store.close();

    const list = await runCli(['sessions', 'list', '--json'], { MANUS_DATA_DIR: dataDir });
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ id: sessionId, status: 'interrupted' });
  });
});
