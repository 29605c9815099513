import type { FakeAnswer, ScriptRequest } from '../../support/fake-llm/index.js';

/** A tool call as the scripted model writes it. */
export const call = (name: string, args: unknown, id?: string) => ({ name, arguments: JSON.stringify(args), id });

/** The model's last turn: a reply, then terminate. */
export const finish = (text: string, extra: Partial<FakeAnswer> = {}): FakeAnswer => ({
  text,
  toolCalls: [call('terminate', { status: 'success' })],
  ...extra,
});

/** What the last tool message the model received says (e.g. the person's answer to ask_human). */
export function lastToolResult(request: ScriptRequest): string {
  const messages: Array<{ role: string; content: unknown }> = request.body?.messages ?? [];
  const tool = [...messages].reverse().find((message) => message.role === 'tool');
  return typeof tool?.content === 'string' ? tool.content : JSON.stringify(tool?.content ?? '');
}
