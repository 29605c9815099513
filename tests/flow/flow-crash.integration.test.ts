import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { openStore } from '../../src/main/store/store.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, collect, runCli, spawnCli } from '../support/cli.js';
import { finish, planningScript, stepStarts } from './flow-script.js';
import { waitFor } from '../support/wait-for.js';

let llm: FakeLlm;
let dataDir: string;
let workspace: string;
beforeAll(async () => {
  llm = await startFakeLlm();
  dataDir = mkdtempSync(join(tmpdir(), 'manus-flow-crash-'));
  workspace = mkdtempSync(join(tmpdir(), 'manus-flow-ws-'));
});
afterAll(async () => {
  await llm.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('a flow killed with SIGKILL mid-step', () => {
  it('shows as interrupted, and `manus resume` finishes it running every completed step exactly once', async () => {
    let crashed = false;
    llm.setScript(
      planningScript({
        plan: () => ({
          toolCalls: [
            {
              name: 'planning',
              arguments: { command: 'create', title: 'Crashy', steps: ['Step A', 'Step B', 'Step C', 'Step D'] },
            },
          ],
        }),
        step: (step) => (step.index === 2 && !crashed ? { fault: 'hang' } : finish(`Result of ${step.text}`)),
      }),
    );
    const env = cliEnv(dataDir, llm.baseUrl);
    const child = spawnCli(['flow', '--json', '--workspace', workspace, 'Do four things'], env);
    child.stdin?.end();
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`step 2 never started: ${stdout}`)), 30_000);
      child.stdout?.on('data', (chunk) => {
        stdout += chunk;
        if (/"type":"step","action":"started"[^\n]*"stepIndex":2/.test(stdout)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // the step's model request is on its way: kill the process in the middle of the step
    await waitFor(() => stepStarts(llm.chatRequests.map((r) => r.body)).get(2) === 1, 30_000);
    const exited = collect(child, 10_000);
    child.kill('SIGKILL');
    await exited;
    crashed = true;
    const shown = stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => CoreEventSchema.parse(JSON.parse(line)));
    const sessionId = shown[0].sessionId;

    const list = await runCli(['sessions', 'list', '--json'], { MANUS_DATA_DIR: dataDir });
    expect(JSON.parse(list.stdout)[0]).toMatchObject({ id: sessionId, status: 'interrupted', mode: 'planning' });

    const resumed = await runCli(['resume', sessionId, '--json'], env);
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    const events = resumed.stdout
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => CoreEventSchema.parse(JSON.parse(line)));
    expect(events.find((e) => e.type === 'notice' && e.code === 'flow_resumed')).toMatchObject({
      text: 'Continuing plan "Crashy" from step 2: Step C',
    });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'finished' });
    const startedAfterResume = events.flatMap((e) =>
      e.type === 'step' && e.action === 'started' ? [e.stepIndex] : [],
    );
    expect(startedAfterResume).toEqual([2, 3]);

    // from the model's request log: A and B once, C twice (cut off, then to completion), D once
    expect([...stepStarts(llm.chatRequests.map((r) => r.body)).entries()]).toEqual([
      [0, 1],
      [1, 1],
      [2, 2],
      [3, 1],
    ]);
    const store = openStore(dataDir);
    try {
      const session = store.getSession(sessionId)!;
      expect(session).toMatchObject({ status: 'finished', workspace });
      const plans = store.plans.list(sessionId);
      expect(plans).toHaveLength(1);
      expect(plans[0].steps.map((s) => [s.status, s.notes, s.runs])).toEqual([
        ['completed', 'Result of Step A', 1],
        ['completed', 'Result of Step B', 1],
        ['completed', 'Result of Step C', 2],
        ['completed', 'Result of Step D', 1],
      ]);
      // step D's prompt carried the notes of every earlier step, including those from before the crash
      const stepD = llm.chatRequests
        .map((r) => JSON.stringify(r.body.messages))
        .find((m) => m.includes('step 3: \\"Step D'));
      expect(stepD).toContain('Step 0 (Step A): Result of Step A');
      expect(stepD).toContain('Step 2 (Step C): Result of Step C');
    } finally {
      store.close();
    }
  });
});

describe('manus resume in agent mode', () => {
  it('continues an interrupted single-agent session through SessionService.resume', async () => {
    let crashed = false;
    llm.setScript((request) =>
      crashed
        ? finish(
            `Resumed: ${JSON.stringify(request.body.messages).includes('Count the files') ? 'task kept' : 'task lost'}`,
          )
        : { fault: 'hang' },
    );
    const env = cliEnv(dataDir, llm.baseUrl);
    const before = llm.chatRequests.length;
    const child = spawnCli(['run', '--json', 'Count the files'], env);
    child.stdin?.end();
    let stdout = '';
    child.stdout?.on('data', (chunk) => (stdout += chunk));
    await waitFor(() => llm.chatRequests.length > before && stdout.includes('"type":"session"'), 30_000);
    const exited = collect(child, 10_000);
    child.kill('SIGKILL');
    await exited;
    crashed = true;
    const sessionId = CoreEventSchema.parse(JSON.parse(stdout.split('\n')[0])).sessionId;
    const resumed = await runCli(['resume', sessionId, '--json'], env);
    expect(resumed.code).toBe(0);
    const last = CoreEventSchema.parse(JSON.parse(resumed.stdout.trim().split('\n').at(-1)!));
    expect(last).toMatchObject({ type: 'done', status: 'finished', result: 'Resumed: task kept' });
  });

  it('refuses an unknown session id with a readable error', async () => {
    const resumed = await runCli(['resume', 'no-such-session'], { MANUS_DATA_DIR: dataDir });
    expect(resumed.code).toBe(2);
    expect(resumed.stderr).toContain('No session with id no-such-session.');
  });
});

// the CLI takes seconds to start when the machine is busy
