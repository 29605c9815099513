import type { FakeReply, ScriptRequest } from '../support/fake-llm/index.js';

/** What a chat request to the fake model is, read from what the flow sent (tools offered, prompt text). */
export type FlowRequest =
  | { kind: 'plan' }
  | { kind: 'revise'; blocked: boolean; prompt: string }
  | { kind: 'summary'; prompt: string }
  | { kind: 'summary_agent'; prompt: string }
  | { kind: 'step'; index: number; text: string; first: boolean; system: string; prompt: string }
  | { kind: 'pa_create'; retry: boolean; prompt: string }
  | { kind: 'pa_update'; prompt: string }
  | { kind: 'pa_summary'; prompt: string }
  | { kind: 'pa_step'; id: string; first: boolean; prompt: string; tools: string[] }
  | { kind: 'other' };

interface WireMessage {
  role: string;
  content: string | { type: string; text?: string }[] | null;
}

export function textOf(message: WireMessage | undefined): string {
  if (!message?.content) return '';
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => part.text ?? '').join('');
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function classify(body: any): FlowRequest {
  const messages = body.messages as WireMessage[];
  const tools = ((body.tools ?? []) as { function: { name: string } }[]).map((tool) => tool.function.name);
  const system = textOf(messages.find((m) => m.role === 'system'));
  const users = messages.filter((m) => m.role === 'user');
  const firstUser = textOf(users[0]);
  const first = !messages.some((m) => m.role === 'assistant');
  if (tools.includes('planning')) {
    if (body.tool_choice === 'required') return { kind: 'plan' };
    return { kind: 'revise', blocked: firstUser.includes('A step is blocked'), prompt: firstUser };
  }
  const step = /You are now working on step (\d+): "([\s\S]*?)"\n/.exec(firstUser);
  if (step) return { kind: 'step', index: Number(step[1]), text: step[2], first, system, prompt: firstUser };
  const paStep = /Your step \(id ([^)]+)\)/.exec(firstUser);
  if (paStep) return { kind: 'pa_step', id: paStep[1], first, prompt: firstUser, tools };
  if (firstUser.includes('Write the final answer')) {
    return tools.length ? { kind: 'summary_agent', prompt: firstUser } : { kind: 'summary', prompt: firstUser };
  }
  if (system.includes('You are the Planner')) {
    if (firstUser.startsWith('The task:')) return { kind: 'pa_create', retry: users.length > 1, prompt: firstUser };
    if (firstUser.includes('The step just finished')) return { kind: 'pa_update', prompt: firstUser };
    if (firstUser.includes('Summarise for the person')) return { kind: 'pa_summary', prompt: firstUser };
  }
  return { kind: 'other' };
}

export const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
export const finish = (text: string, status: 'success' | 'failure' = 'success'): FakeReply => ({
  text,
  toolCalls: [call('terminate', { status })],
});
export const createPlan = (title: string, steps: string[], dependencies?: number[][]): FakeReply => ({
  toolCalls: [
    call('planning', {
      command: 'create',
      title,
      steps,
      ...(dependencies ? { step_dependencies: dependencies } : {}),
    }),
  ],
});

export interface FlowScriptParts {
  plan?: (request: ScriptRequest) => FakeReply;
  step?: (step: Extract<FlowRequest, { kind: 'step' }>, request: ScriptRequest) => FakeReply | Promise<FakeReply>;
  revise?: (revise: Extract<FlowRequest, { kind: 'revise' }>) => FakeReply;
  summary?: (summary: Extract<FlowRequest, { kind: 'summary' }>) => FakeReply;
  summaryAgent?: () => FakeReply;
}

/** A fake model for the planning flow: plans, runs steps (`Result of step N`), says continue, summarises. */
export function planningScript(parts: FlowScriptParts = {}) {
  return (request: ScriptRequest): FakeReply | Promise<FakeReply> => {
    const kind = classify(request.body);
    switch (kind.kind) {
      case 'plan':
        return parts.plan?.(request) ?? createPlan('Three steps', ['Gather facts', 'Write draft', 'Check draft']);
      case 'step':
        return parts.step?.(kind, request) ?? finish(`Result of step ${kind.index}`);
      case 'revise':
        return parts.revise?.(kind) ?? { text: 'continue' };
      case 'summary':
        return parts.summary?.(kind) ?? { text: 'Summary: all done.' };
      case 'summary_agent':
        return parts.summaryAgent?.() ?? finish('Agent summary.');
      default:
        return { text: `unexpected request: ${JSON.stringify(request.body.messages).slice(0, 300)}` };
    }
  };
}

/** How many times each step was started (first request of an agent run on it), from the request log. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function stepStarts(bodies: any[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const body of bodies) {
    const kind = classify(body);
    if (kind.kind === 'step' && kind.first) counts.set(kind.index, (counts.get(kind.index) ?? 0) + 1);
  }
  return counts;
}

/** The plan the scripted Planner answers a Plan-Act task with, unless a test gives another. */
export const PLAN_ACT_PLAN = {
  title: '数据报告',
  goal: 'Write a report file',
  language: 'zh',
  steps: [
    { id: 'a', description: 'Collect the numbers' },
    { id: 'b', description: 'Write the report file' },
  ],
  message: '我会分两步完成。',
};

export type PlanActPart<K extends FlowRequest['kind']> = (
  request: Extract<FlowRequest, { kind: K }>,
  raw: ScriptRequest,
) => FakeReply;

/** A fake model for Plan-Act: plans, runs each step with a JSON report, keeps step b, summarises. */
export function planActScript(parts: {
  create?: PlanActPart<'pa_create'>;
  step?: PlanActPart<'pa_step'>;
  update?: PlanActPart<'pa_update'>;
  summary?: PlanActPart<'pa_summary'>;
}) {
  return (request: ScriptRequest): FakeReply => {
    const kind = classify(request.body);
    switch (kind.kind) {
      case 'pa_create':
        return parts.create?.(kind, request) ?? { text: JSON.stringify(PLAN_ACT_PLAN) };
      case 'pa_step':
        return (
          parts.step?.(kind, request) ??
          finish(JSON.stringify({ success: true, result: `done ${kind.id}`, attachments: [] }))
        );
      case 'pa_update':
        return (
          parts.update?.(kind, request) ?? { text: '{"steps": [{"id": "b", "description": "Write the report file"}]}' }
        );
      case 'pa_summary':
        return parts.summary?.(kind, request) ?? { text: '{"message": "报告已完成。", "attachments": ["report.md"]}' };
      default:
        return { text: `unexpected: ${JSON.stringify(request.body.messages).slice(0, 300)}` };
    }
  };
}
