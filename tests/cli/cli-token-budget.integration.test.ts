import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply, type ScriptRequest } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';
import { classify, createPlan } from '../flow/flow-script.js';

/** 500 tokens a call */
const USAGE = { prompt_tokens: 400, completion_tokens: 100 };
const busy = (request: ScriptRequest): FakeReply => ({
  usage: USAGE,
  toolCalls: [{ name: 'no_such_tool', arguments: { attempt: request.index } }],
});
const done = (text: string): FakeReply => ({
  text,
  usage: USAGE,
  toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
});

let llm: FakeLlm;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-budget-'));
  env = cliEnv(dataDir, llm.baseUrl);
  return () => rmSync(dataDir, { recursive: true, force: true });
});

function sessionIdOf(stdout: string): string {
  return JSON.parse(stdout.trim().split('\n')[0]).sessionId;
}

describe('manus --max-tokens and agent.maxTotalTokens', { timeout: 180_000 }, () => {
  it('says what counts in the help of run, flow and resume', async () => {
    for (const command of ['run', 'flow', 'resume']) {
      const help = (await runCli([command, '--help'])).stdout.replace(/\s+/g, ' ');
      expect(help).toContain('--max-tokens <n>');
      expect(help).toContain('counting every agent, planner and summary call of this run only');
      expect(help).toContain('agent.maxTotalTokens is a budget for the whole session');
    }
    const bad = await runCli(['run', '--max-tokens', '0', 'task'], env);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--max-tokens <n>' argument '0' is invalid\. must be a positive whole number/);
  });

  it('run stops at its budget, sessions show its tokens and cost, and resume goes on with a larger one', async () => {
    llm.setScript(busy);
    const before = llm.chatRequests.length;
    const run = await runCli(['run', '--json', '--model', 'gpt-4o-mini', '--max-tokens', '1200', 'Work forever'], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('manus: failed: Stopped: this run used 1,500 tokens, its budget is 1,200');
    expect(llm.chatRequests.length - before).toBe(3);
    expect(run.stdout).toContain('"code":"token_budget_exceeded"');
    const sessionId = sessionIdOf(run.stdout);

    const show = await runCli(['sessions', 'show', sessionId], env);
    // 1,200 prompt tokens at $0.15 and 300 completion tokens at $0.60 per million
    expect(show.stdout).toContain('- Tokens: 1200 prompt + 300 completion = 1500, estimated cost $0.0004');
    const listed = JSON.parse((await runCli(['sessions', 'list', '--json'], env)).stdout);
    expect(listed[0].usage).toMatchObject({ totalTokens: 1500 });
    expect(listed[0].usage.cost).toBeCloseTo(0.00036, 10);

    llm.setScript(() => done('Finished after all.'));
    const resumed = await runCli(['resume', sessionId, '--max-tokens', '5000'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('Finished after all.');
  });

  it('a session budget set with config set stops the next run before any call', async () => {
    llm.setScript(() => done('One answer.'));
    const first = await runCli(['run', '--json', 'Answer once'], env);
    expect(first.code, first.stderr).toBe(0);
    const set = await runCli(['config', 'set', 'agent.maxTotalTokens', '500'], env);
    expect(set.code, set.stderr).toBe(0);
    expect((await runCli(['config', 'get', 'agent.maxTotalTokens'], env)).stdout.trim()).toBe('500');

    const before = llm.chatRequests.length;
    const next = await runCli(['run', '--session', sessionIdOf(first.stdout), 'More'], env);
    expect(next.code).toBe(1);
    expect(next.stderr).toContain('this session used 500 tokens, its budget is 500');
    expect(llm.chatRequests.length).toBe(before);
  });

  it('flow stops as a whole at its budget', async () => {
    llm.setScript((request) =>
      classify(request.body).kind === 'plan'
        ? { ...createPlan('Two steps', ['Gather facts', 'Write draft']), usage: USAGE }
        : busy(request),
    );
    const before = llm.chatRequests.length;
    const flow = await runCli(['flow', '--max-tokens', '1000', 'Plan it'], env);
    expect(flow.code).toBe(1);
    expect(flow.stderr).toContain('this run used 1,000 tokens, its budget is 1,000');
    expect(llm.chatRequests.slice(before).map((request) => classify(request.body).kind)).toEqual(['plan', 'step']);
  });
});
