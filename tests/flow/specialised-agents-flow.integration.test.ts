import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { call, createPlan, finish, planningScript, textOf } from './flow-script.js';

let harness: CoreHarness | undefined;
let pages: FixtureServer | undefined;
let sessionId = '';
let workspace = '';
afterEach(async () => {
  if (sessionId) await removeSessionSandbox(sessionId);
  await harness?.close();
  await pages?.close();
  harness = undefined;
  rmSync(workspace, { recursive: true, force: true });
});

function lastToolOutput(body: { messages: { role: string }[] }): string {
  return textOf([...body.messages].reverse().find((m) => m.role === 'tool') as never);
}

describe('swe and browser agents in one flow (real sandbox and Chromium)', () => {
  it('[SWE] edits and runs code with bash and str_replace_editor; [BROWSER] reads a page with browser_use only', async () => {
    workspace = mkdtempSync(join(tmpdir(), 'manus-agents-'));
    pages = await startFixtureServer({ '/price': htmlPage('<h1>Widget</h1><button>Buy for 42 EUR</button>', 'Shop') });
    const pageUrl = pages.url('/price');
    harness = await startCoreHarness(
      planningScript({
        plan: () => createPlan('Build and check', ['[SWE] Write and run hello.py', '[BROWSER] Read the widget price']),
        step: (step, request) => {
          const turns = request.body.messages.filter((m: { role: string }) => m.role === 'assistant').length;
          if (step.index === 0) {
            if (turns === 0) {
              return {
                toolCalls: [
                  call('str_replace_editor', {
                    command: 'create',
                    path: '/workspace/hello.py',
                    file_text: 'print("hello from", 6 * 7)\n',
                  }),
                ],
              };
            }
            if (turns === 1) return { toolCalls: [call('bash', { command: 'cd /workspace && python3 hello.py' })] };
            return finish(`Ran hello.py: ${lastToolOutput(request.body).trim()}`);
          }
          if (turns === 0) return { toolCalls: [call('browser_use', { action: 'go_to_url', url: pageUrl })] };
          const price = /Buy for (\d+ EUR)/.exec(lastToolOutput(request.body))?.[1] ?? 'not found';
          return finish(`The widget costs ${price}.`);
        },
      }),
      { settings: { browser: { executablePath: '/usr/bin/chromium', allowPrivateNetwork: true } } },
    );
    const started = harness.service.start({
      task: 'Write a script and check a price',
      mode: 'planning',
      agents: ['manus', 'swe', 'browser'],
      workspace,
    });
    sessionId = started.sessionId;
    expect((await started.done).status).toBe('finished');

    expect(readFileSync(join(workspace, 'hello.py'), 'utf8')).toBe('print("hello from", 6 * 7)\n');
    const steps = harness.store.plans.list(sessionId)[0].steps;
    expect(steps.map((s) => [s.agent, s.status])).toEqual([
      ['swe', 'completed'],
      ['browser', 'completed'],
    ]);
    expect(steps[0].notes).toContain('hello from 42');
    expect(steps[0].attachments).toContain('hello.py');
    expect(steps[1].notes).toBe('The widget costs 42 EUR.');

    const tools = harness.store
      .listEvents(sessionId)
      .filter((e): e is Extract<CoreEvent, { type: 'tool' }> => e.type === 'tool' && e.status !== 'calling');
    expect(tools.map((t) => [t.agent, t.name, t.status])).toEqual([
      ['swe', 'str_replace_editor', 'done'],
      ['swe', 'bash', 'done'],
      ['swe', 'terminate', 'done'],
      ['browser', 'browser_use', 'done'],
      ['browser', 'terminate', 'done'],
    ]);
    // each agent was offered only its own tools
    const offered = harness.llm.chatRequests
      .map((r) => r.body)
      .filter((body) => body.tools?.some((t: { function: { name: string } }) => t.function.name === 'terminate'))
      .map((body) => body.tools.map((t: { function: { name: string } }) => t.function.name).sort());
    expect(offered).toContainEqual(['bash', 'str_replace_editor', 'terminate']);
    expect(offered).toContainEqual(['browser_use', 'terminate']);
    expect(existsSync(join(workspace, 'hello.py'))).toBe(true);
  });
});
