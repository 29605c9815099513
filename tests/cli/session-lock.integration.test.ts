import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/main/store/store.js';
import { startFakeLlm, type FakeLlm, type ScriptRequest } from '../support/fake-llm/index.js';
import { cliEnv, collect, runCli, spawnCli } from '../support/cli.js';

const SLOW = 'take your time';
const TASKS = ['Say hello', SLOW, 'Carry on'];

let llm: FakeLlm;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  // the task asking to take time never gets its answer: the run holding the session stays busy until killed
  llm = await startFakeLlm((request: ScriptRequest) => {
    const texts = (request.body.messages as { content?: unknown }[]).map((message) => JSON.stringify(message.content));
    const task = texts.reverse().flatMap((text) => TASKS.filter((candidate) => text.includes(candidate)))[0];
    if (task === SLOW) return { fault: 'hang' };
    return { text: 'Done.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  });
  dataDir = mkdtempSync(join(tmpdir(), 'manus-lock-'));
  env = cliEnv(dataDir, llm.baseUrl);
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function userMessages(sessionId: string): string[] {
  const store = openStore(dataDir);
  try {
    return store
      .listEvents(sessionId)
      .flatMap((event) => (event.type === 'message' && event.role === 'user' ? [event.text] : []));
  } finally {
    store.close();
  }
}

describe('one process runs a session at a time', { timeout: 120_000 }, () => {
  it('a second run of a busy session refuses naming the holder; after a kill -9 of the holder the next run takes it', async () => {
    const first = await runCli(['run', '--json', 'Say hello'], env);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (JSON.parse(first.stdout.split('\n')[0]) as { sessionId: string }).sessionId;

    const holder = spawnCli(['run', '--json', '--session', sessionId, SLOW], env);
    holder.stdin?.end();
    const holderExited = collect(holder, 60_000);
    let shown = '';
    await new Promise<void>((resolve, reject) => {
      holder.stdout?.on('data', (chunk) => {
        shown += chunk;
        // the holder's own message is stored: it runs the session now
        if (shown.includes(SLOW)) resolve();
      });
      holder.on('close', () => reject(new Error(`the holder ended early: ${shown}`)));
    });

    const refused = await runCli(['run', '--session', sessionId, 'Interleave with it'], env);
    expect(refused.code, refused.stdout + refused.stderr).not.toBe(0);
    expect(refused.stderr).toContain(`Session ${sessionId} is being run by another manus process (pid ${holder.pid}`);
    expect(refused.stderr).toContain(`kill ${holder.pid}`);
    const resumed = await runCli(['resume', sessionId], env);
    expect(resumed.code, resumed.stdout + resumed.stderr).not.toBe(0);
    expect(resumed.stderr).toContain(`pid ${holder.pid}`);
    expect(userMessages(sessionId)).toEqual(['Say hello', SLOW]);

    holder.kill('SIGKILL');
    await holderExited;
    const taken = await runCli(['run', '--session', sessionId, 'Carry on'], env);
    expect(taken.code, taken.stderr).toBe(0);
    expect(userMessages(sessionId)).toEqual(['Say hello', SLOW, 'Carry on']);
  });

  it('a run held on another host is refused with the marker to delete if that process is gone', async () => {
    const first = await runCli(['run', '--json', 'Say hello'], env);
    expect(first.code, first.stderr).toBe(0);
    const sessionId = (JSON.parse(first.stdout.split('\n')[0]) as { sessionId: string }).sessionId;
    const marker = join(dataDir, 'run', `${sessionId}.pid`);
    // that host's process table is not this one's: a live-looking pid there proves nothing here
    writeFileSync(marker, JSON.stringify({ pid: 1, started: '1', host: 'another-host' }));

    const refused = await runCli(['run', '--session', sessionId, 'Carry on'], env);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('pid 1 on another-host');
    expect(refused.stderr).toContain(`delete ${marker}`);

    rmSync(marker);
    const taken = await runCli(['run', '--session', sessionId, 'Carry on'], env);
    expect(taken.code, taken.stderr).toBe(0);
  });
});
