import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../shared/chat-message.js';

/** What came back from one request, before usage is settled. */
/** Some servers send calls without ids; memory needs ids unique across turns to pair results. */
function freshCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

export interface RawReply {
  text: string;
  toolCalls: ToolCall[];
  finishReason: string | null;
  serverUsage?: CompletionUsage;
  /** false when the server sent no choice at all */
  sawChoice: boolean;
}

interface PartialCall {
  id: string;
  name: string;
  arguments: string;
}

/** Assembles tool calls from stream deltas: pieces of one call share an index; the id and name come first. */
class ToolCallAssembler {
  private readonly calls: PartialCall[] = [];
  private readonly slotOfIndex = new Map<number, number>();

  add(delta: NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]): void {
    const index = delta.index ?? this.calls.length;
    let slot = this.slotOfIndex.get(index);
    // some servers send whole calls that all say index 0: a new id means a new call
    if (slot !== undefined && delta.id && this.calls[slot].id && delta.id !== this.calls[slot].id) slot = undefined;
    if (slot === undefined) {
      slot = this.calls.push({ id: '', name: '', arguments: '' }) - 1;
      this.slotOfIndex.set(index, slot);
    }
    const call = this.calls[slot];
    if (delta.id) call.id = delta.id;
    // names arrive whole; some servers repeat them on every piece
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  result(): ToolCall[] {
    return this.calls
      .filter((call) => call.name)
      .map((call) => ({ id: call.id || freshCallId(), name: call.name, arguments: call.arguments }));
  }
}

/** Read a streamed reply: text deltas go to `onDelta`, every chunk counts as progress. */
export async function readStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  hooks: { onDelta?: (chunk: string) => void; onProgress?: () => void },
): Promise<RawReply> {
  const assembler = new ToolCallAssembler();
  let text = '';
  let finishReason: string | null = null;
  let serverUsage: CompletionUsage | undefined;
  let sawChoice = false;
  for await (const chunk of stream) {
    hooks.onProgress?.();
    if (chunk.usage) serverUsage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const content = choice.delta?.content;
    if (content) {
      text += content;
      hooks.onDelta?.(content);
    }
    for (const delta of choice.delta?.tool_calls ?? []) assembler.add(delta);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  return { text, toolCalls: assembler.result(), finishReason, serverUsage, sawChoice };
}

export function readCompletion(completion: ChatCompletion): RawReply {
  const choice = completion.choices?.[0];
  if (!choice) return { text: '', toolCalls: [], finishReason: null, serverUsage: completion.usage, sawChoice: false };
  const toolCalls = (choice.message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function'
      ? [{ id: call.id || freshCallId(), name: call.function.name, arguments: call.function.arguments ?? '' }]
      : [],
  );
  return {
    text: choice.message.content ?? '',
    toolCalls,
    finishReason: choice.finish_reason ?? null,
    serverUsage: completion.usage,
    sawChoice: true,
  };
}
