import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';

let llm: FakeLlm;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});

describe('the built CLI writes a run’s events on the store’s event writer thread', { timeout: 120_000 }, () => {
  it('finds the thread’s entry beside its chunks, starts it, and every event shown is stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-writer-'));
    try {
      const words = Array.from({ length: 60 }, (_, index) => `word${index}`).join(' ');
      // a reply streamed slowly enough that the thread is up long before it ends
      llm.setScript(
        sequence({
          text: words,
          chunkDelayMs: 10,
          toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
        }),
      );
      const result = await runCli(['run', '--json', 'Count to sixty'], cliEnv(dataDir, llm.baseUrl));
      expect(result.code, result.stderr).toBe(0);
      // a build without the entry, or a thread that cannot open the database, says so on stderr
      expect(result.stderr).not.toContain('event writer thread');
      const shown = result.stdout
        .trim()
        .split('\n')
        .map((line) => CoreEventSchema.parse(JSON.parse(line)));
      expect(shown.filter((event) => event.type === 'message' && event.delta).length).toBeGreaterThan(10);
      const store = openStore(dataDir);
      try {
        const stored = store.listEvents(shown[0]!.sessionId);
        expect(stored.map((event) => event.seq)).toEqual(shown.map((event) => event.seq));
        expect(stored.at(-1)).toMatchObject({ type: 'done', status: 'finished' });
      } finally {
        store.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
