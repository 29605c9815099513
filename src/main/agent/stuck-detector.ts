import type { ChatMessage, ToolCall } from '../../shared/chat-message.js';

export const DUPLICATE_THRESHOLD = 2;
/** nudges given before the agent is stopped for repeating itself */
export const MAX_STUCK_NUDGES = 2;

export const STUCK_NUDGE =
  'Your last replies repeat earlier ones: the same answer, or the same tool call with the same arguments and the same ' +
  'result. Repeating it will not change the outcome. Consider new strategies and avoid the paths already tried.';

/**
 * True when the last assistant reply repeats earlier ones at least `threshold` times: the same text, or the same
 * tool calls (same tools, same arguments as normalised JSON) that got the same results.
 */
export function isStuck(messages: readonly ChatMessage[], threshold = DUPLICATE_THRESHOLD): boolean {
  const resultOf = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId) resultOf.set(message.toolCallId, message.content ?? '');
  }
  const keys = messages.filter((m) => m.role === 'assistant').map((m) => replyKey(m, resultOf));
  const lastKey = keys.at(-1);
  if (!lastKey) return false;
  return keys.slice(0, -1).filter((key) => key === lastKey).length >= threshold;
}

/**
 * A reply with tool calls is what it did and what that returned: polling a running command (bash wait_seconds) or
 * scrolling a page repeats the call but gets new output, which is progress. A reply without calls is its text.
 */
function replyKey(message: ChatMessage, resultOf: ReadonlyMap<string, string>): string {
  const calls = message.toolCalls ?? [];
  if (calls.length === 0) return (message.content ?? '').trim();
  const done = calls.map((call) => `${callKey(call)}=>${resultOf.get(call.id) ?? ''}`);
  return JSON.stringify(done.sort());
}

function callKey(call: ToolCall): string {
  return `${call.name}(${normalisedArguments(call.arguments)})`;
}

/** The same arguments written differently (key order, spacing) are the same call. */
function normalisedArguments(raw: string): string {
  try {
    return JSON.stringify(sortedKeys(JSON.parse(raw)));
  } catch {
    return raw.trim();
  }
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}
