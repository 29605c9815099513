import type { ChatMessage } from '../../shared/chat-message.js';

export const DEFAULT_MAX_MESSAGES = 100;

/**
 * An agent's conversation. Capped at `maxMessages`, dropping the oldest, but never leaving a tool result
 * without the assistant message that called it. `onAppend` persists what is added.
 */
export class Memory {
  private list: ChatMessage[];

  constructor(
    initial: ChatMessage[] = [],
    readonly maxMessages = DEFAULT_MAX_MESSAGES,
    private readonly onAppend: (messages: ChatMessage[]) => void = () => {},
  ) {
    this.list = capMessages(initial, maxMessages);
  }

  get messages(): readonly ChatMessage[] {
    return this.list;
  }

  add(...messages: ChatMessage[]): void {
    if (messages.length === 0) return;
    this.list = capMessages([...this.list, ...messages], this.maxMessages);
    this.onAppend(messages);
  }

  last(): ChatMessage | undefined {
    return this.list.at(-1);
  }

  /** Tool calls of the last assistant message that have no result yet. */
  unansweredToolCalls(): { id: string; name: string }[] {
    const lastCallIndex = this.list.findLastIndex((m) => m.role === 'assistant' && m.toolCalls?.length);
    if (lastCallIndex < 0) return [];
    const answered = new Set(
      this.list.slice(lastCallIndex + 1).flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : [])),
    );
    return (this.list[lastCallIndex].toolCalls ?? []).filter((call) => !answered.has(call.id));
  }
}

/** Keeps the newest messages; a leading tool result whose call was cut away goes too. */
export function capMessages(messages: ChatMessage[], maxMessages: number): ChatMessage[] {
  if (messages.length <= maxMessages) return messages;
  let start = messages.length - maxMessages;
  while (start < messages.length && messages[start].role === 'tool') start++;
  return messages.slice(start);
}
