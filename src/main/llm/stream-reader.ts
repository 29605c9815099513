import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../shared/chat-message.js';
import { DEFAULT_MAX_REPLY_CHARS } from '../../shared/settings/llm-config.js';

/** Some servers send calls without ids; memory needs ids unique across turns to pair results. */
function freshCallId(): string {
  return `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** What came back from one request, before usage is settled. */
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

/** Without index and id, a piece naming a tool starts a new call when the name differs or the last call is whole. */
function startsAnotherCall(last: PartialCall, name: string | undefined): boolean {
  if (!name || !last.name) return false;
  if (name !== last.name) return true;
  try {
    JSON.parse(last.arguments);
    return true;
  } catch {
    return false;
  }
}

/**
 * Assembles tool calls from stream deltas: pieces of one call share an index; the id and name come first.
 * Servers that send no index (SGLang) are read by id, then by order: a piece without an id continues the last call.
 */
class ToolCallAssembler {
  private readonly calls: PartialCall[] = [];
  private readonly slotOfIndex = new Map<number, number>();

  add(delta: NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number]): void {
    const call = this.calls[this.slotFor(delta)];
    if (delta.id) call.id = delta.id;
    // names arrive whole; some servers repeat them on every piece
    if (delta.function?.name && !call.name) call.name = delta.function.name;
    if (delta.function?.arguments) call.arguments += delta.function.arguments;
  }

  private slotFor(delta: { index?: number | null; id?: string; function?: { name?: string } }): number {
    // the SDK types say index is always there; SGLang leaves it out
    const index = typeof delta.index === 'number' ? delta.index : undefined;
    if (index === undefined) {
      const byId = delta.id ? this.calls.findIndex((call) => call.id === delta.id) : -1;
      if (byId !== -1) return byId;
      const last = this.calls.at(-1);
      if (!delta.id && last && !startsAnotherCall(last, delta.function?.name)) return this.calls.length - 1;
      return this.calls.push({ id: '', name: '', arguments: '' }) - 1;
    }
    let slot = this.slotOfIndex.get(index);
    // some servers send whole calls that all say index 0: a new id means a new call
    if (slot !== undefined && delta.id && this.calls[slot].id && delta.id !== this.calls[slot].id) slot = undefined;
    if (slot === undefined) {
      slot = this.calls.push({ id: '', name: '', arguments: '' }) - 1;
      this.slotOfIndex.set(index, slot);
    }
    return slot;
  }

  result(): ToolCall[] {
    return this.calls
      .filter((call) => call.name)
      .map((call) => ({ id: call.id || freshCallId(), name: call.name, arguments: call.arguments }));
  }
}

/** A reply that went past its size limit: the stream was cut there. */
export class ReplyTooLargeError extends Error {
  constructor(readonly limit: number) {
    super(`the reply went past ${limit} characters; the stream was cut there`);
    this.name = 'ReplyTooLargeError';
  }
}

/**
 * Read a streamed reply: text deltas go to `onDelta`, every chunk counts as progress. Text and tool-call arguments
 * past `maxChars` end the reading with ReplyTooLargeError, so an endless stream cannot fill the memory.
 */
export async function readStream(
  stream: AsyncIterable<ChatCompletionChunk>,
  hooks: { onDelta?: (chunk: string) => void; onProgress?: () => void; maxChars?: number },
): Promise<RawReply> {
  const assembler = new ToolCallAssembler();
  let text = '';
  let finishReason: string | null = null;
  let serverUsage: CompletionUsage | undefined;
  let sawChoice = false;
  const maxChars = hooks.maxChars ?? DEFAULT_MAX_REPLY_CHARS;
  let received = 0;
  for await (const chunk of stream) {
    hooks.onProgress?.();
    if (chunk.usage) serverUsage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    sawChoice = true;
    const content = choice.delta?.content;
    received += (content?.length ?? 0) + sizeOfCallPieces(choice.delta?.tool_calls);
    if (received > maxChars) throw new ReplyTooLargeError(maxChars);
    if (content) {
      text += content;
      hooks.onDelta?.(content);
    }
    for (const delta of choice.delta?.tool_calls ?? []) assembler.add(delta);
    if (choice.finish_reason) finishReason = choice.finish_reason;
  }
  return { text, toolCalls: assembler.result(), finishReason, serverUsage, sawChoice };
}

function sizeOfCallPieces(pieces: ChatCompletionChunk.Choice.Delta['tool_calls']): number {
  return (pieces ?? []).reduce(
    (sum, piece) => sum + (piece.function?.arguments?.length ?? 0) + (piece.function?.name?.length ?? 0),
    0,
  );
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
