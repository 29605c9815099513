import type { ChatMessage } from '../../shared/chat-message.js';

const MISSING_RESULT = '(no result: this tool call was interrupted before it finished)';

/**
 * Providers refuse a conversation where a tool call has no result or a result has no call (a run cancelled
 * mid-step, a memory cut elsewhere). Answer missing calls with a note and drop orphan results.
 */
export function repairToolPairs(messages: readonly ChatMessage[]): { messages: ChatMessage[]; repaired: number } {
  const repairedMessages: ChatMessage[] = [];
  let repaired = 0;
  for (let at = 0; at < messages.length;) {
    const message = messages[at++];
    if (message.role === 'tool') {
      // a result not directly after its call
      repaired++;
      continue;
    }
    repairedMessages.push(message);
    if (message.role !== 'assistant' || !message.toolCalls?.length) continue;
    const expected = new Map(message.toolCalls.map((call) => [call.id, call]));
    const results: ChatMessage[] = [];
    while (at < messages.length && messages[at].role === 'tool') {
      const result = messages[at++];
      if (result.toolCallId && expected.has(result.toolCallId)) {
        expected.delete(result.toolCallId);
        results.push(result);
      } else {
        repaired++;
      }
    }
    for (const call of expected.values()) {
      results.push({ role: 'tool', toolCallId: call.id, name: call.name, content: MISSING_RESULT });
      repaired++;
    }
    repairedMessages.push(...results);
  }
  return repaired === 0 ? { messages: [...messages], repaired } : { messages: repairedMessages, repaired };
}
