import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../src/shared/events.js';
import { parseApprovalAnswer } from '../../src/main/approval/approval-gate.js';
import { sequence, type FakeReply } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';

const call = (name: string, args: unknown, id: string) => ({ name, arguments: JSON.stringify(args), id });
const finish = { text: 'done', toolCalls: [call('terminate', { status: 'success' }, 'end')] };

let harness: CoreHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

async function runWithAnswers(
  policy: 'auto' | 'risky' | 'all',
  replies: FakeReply[],
  answers: string[],
  remembered: string[] = [],
) {
  harness = await startCoreHarness(sequence(...replies), {
    settings: { approval: { policy } },
    service: { rememberAlwaysAllow: (name) => remembered.push(name) },
  });
  const asked: Extract<CoreEvent, { type: 'ask' }>[] = [];
  harness.service.subscribe((event) => {
    if (event.type !== 'ask' || event.status !== 'waiting') return;
    asked.push(event);
    harness!.service.answer(event.sessionId, event.askId, answers.shift() ?? 'no');
  });
  const { sessionId, done } = harness.service.start({ task: 'edit files' });
  const result = await done;
  const toolMessages = harness.llm.chatRequests
    .at(-1)!
    .body.messages.filter((m: { role: string }) => m.role === 'tool') as { tool_call_id: string; content: string }[];
  const workspace = harness.store.getSession(sessionId)!.workspace;
  return { result, asked, toolMessages, workspace };
}

describe('tool approval', () => {
  it('asks before risky calls under the risky policy; a denial reaches the model as the result', async () => {
    const { asked, toolMessages, workspace } = await runWithAnswers(
      'risky',
      [
        { toolCalls: [call('str_replace_editor', { command: 'create', path: 'denied.txt', file_text: 'x' }, 'w1')] },
        { toolCalls: [call('str_replace_editor', { command: 'create', path: 'approved.txt', file_text: 'ok' }, 'w2')] },
        { toolCalls: [call('str_replace_editor', { command: 'view', path: 'approved.txt' }, 'r1')] },
        finish,
      ],
      ['n', 'y'],
    );
    expect(asked.map((a) => a.tool?.callId)).toEqual(['w1', 'w2']);
    expect(asked[0]).toMatchObject({
      kind: 'approval',
      tool: { name: 'str_replace_editor', args: { command: 'create', path: 'denied.txt' } },
    });
    expect(toolMessages.find((m) => m.tool_call_id === 'w1')?.content).toContain('did not allow');
    expect(existsSync(join(workspace, 'denied.txt'))).toBe(false);
    expect(readFileSync(join(workspace, 'approved.txt'), 'utf8')).toBe('ok');
    expect(toolMessages.find((m) => m.tool_call_id === 'r1')?.content).toContain('ok');
  });

  it('"always" allows the tool from then on and is remembered in the settings', async () => {
    const remembered: string[] = [];
    const { asked } = await runWithAnswers(
      'all',
      [
        { toolCalls: [call('str_replace_editor', { command: 'view', path: '.' }, 'v1')] },
        { toolCalls: [call('str_replace_editor', { command: 'view', path: '.' }, 'v2')] },
        finish,
      ],
      ['always'],
      remembered,
    );
    expect(asked.map((a) => a.tool?.callId)).toEqual(['v1']);
    expect(remembered).toEqual(['str_replace_editor']);
  });

  it('runs everything without asking under the auto policy', async () => {
    const { asked, workspace } = await runWithAnswers(
      'auto',
      [{ toolCalls: [call('str_replace_editor', { command: 'create', path: 'a.txt', file_text: 'A' }, 'w')] }, finish],
      [],
    );
    expect(asked).toEqual([]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('A');
  });

  it('reads approval answers', () => {
    expect(parseApprovalAnswer(' Yes ')).toBe('allow');
    expect(parseApprovalAnswer('a')).toBe('always');
    expect(parseApprovalAnswer('n')).toBe('deny');
    expect(parseApprovalAnswer('not this one')).toBe('deny');
  });
});

describe('per-tool MCP approval', () => {
  it('asks for an MCP tool set to "ask" even under the auto policy, and skips one set to "auto" under "all"', async () => {
    const { HumanChannel } = await import('../../src/main/human/human-channel.js');
    const { createApprovalGate } = await import('../../src/main/approval/approval-gate.js');
    const { AppSettingsSchema } = await import('../../src/shared/settings/app-settings.js');
    const { z } = await import('zod');
    const asked: string[] = [];
    const human = new HumanChannel(
      's',
      (event) => {
        if (event.type === 'ask' && event.status === 'waiting') {
          asked.push(event.tool?.name ?? '');
          queueMicrotask(() => human.answer(event.askId, 'y'));
        }
      },
      true,
    );
    const mcpTool = (name: string) => ({
      name,
      description: '',
      parameters: z.object({}),
      risk: 'execute' as const,
      execute: async () => ({}),
    });
    const servers = { everything: { type: 'stdio', command: 'x', toolApproval: { echo: 'ask', add: 'auto' } } };
    const signal = new AbortController().signal;
    const autoGate = createApprovalGate({
      settings: () => AppSettingsSchema.parse({ approval: { policy: 'auto' }, mcp: { servers } }),
      human,
    });
    expect(await autoGate({ callId: '1', tool: mcpTool('mcp_everything_echo'), args: {}, signal })).toEqual({
      allowed: true,
    });
    const allGate = createApprovalGate({
      settings: () => AppSettingsSchema.parse({ approval: { policy: 'all' }, mcp: { servers } }),
      human,
    });
    expect(await allGate({ callId: '2', tool: mcpTool('mcp_everything_add'), args: {}, signal })).toEqual({
      allowed: true,
    });
    expect(asked).toEqual(['mcp_everything_echo']);
  });
});
