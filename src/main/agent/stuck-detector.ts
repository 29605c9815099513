import type { ChatMessage } from '../../shared/chat-message.js';

export const DUPLICATE_THRESHOLD = 2;
/** nudges given before the agent is stopped for repeating itself */
export const MAX_STUCK_NUDGES = 2;

export const STUCK_NUDGE =
  'You have given the same reply several times. Consider new strategies and avoid repeating ineffective paths already tried.';

/** True when the last assistant reply repeats earlier ones at least `threshold` times. */
export function isStuck(messages: readonly ChatMessage[], threshold = DUPLICATE_THRESHOLD): boolean {
  const assistant = messages.filter((m) => m.role === 'assistant');
  const last = assistant.at(-1);
  if (!last) return false;
  const lastKey = replyKey(last);
  if (!lastKey) return false;
  let duplicates = 0;
  for (const message of assistant.slice(0, -1)) if (replyKey(message) === lastKey) duplicates++;
  return duplicates >= threshold;
}

/** Replies with text count; bare tool calls may repeat legitimately (polling a long command). */
function replyKey(message: ChatMessage): string {
  const text = (message.content ?? '').trim();
  if (!text) return '';
  const calls = (message.toolCalls ?? []).map((call) => `${call.name}(${call.arguments})`).join('|');
  return `${text}#${calls}`;
}
