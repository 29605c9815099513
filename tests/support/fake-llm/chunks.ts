import type { FakeAnswer, FakeToolCall, FakeUsage } from './types.js';

/** Pieces of a streamed text: one per word (with its trailing space), a lone word in two halves. */
export function splitText(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  if (words.length > 1) return words;
  if (text.length < 2) return text ? [text] : [];
  const half = Math.ceil(text.length / 2);
  return [text.slice(0, half), text.slice(half)];
}

/** Split a string into `parts` pieces of roughly equal length (at least one non-empty piece). */
export function splitInto(text: string, parts: number): string[] {
  if (text.length === 0) return [''];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

export function argumentsText(call: FakeToolCall): string {
  return typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
}

export function callId(call: FakeToolCall, requestIndex: number, position: number): string {
  return call.id ?? `call_${requestIndex}_${position}`;
}

export function finishReasonOf(answer: FakeAnswer): string {
  return answer.finishReason ?? (answer.toolCalls?.length ? 'tool_calls' : 'stop');
}

/** A rough usage when the script gives none (about 4 characters per token). */
export function estimateUsage(body: unknown, answer: FakeAnswer): FakeUsage {
  const promptChars = JSON.stringify((body as { messages?: unknown })?.messages ?? []).length;
  const completionChars =
    (answer.text ?? '').length + (answer.toolCalls ?? []).reduce((sum, call) => sum + argumentsText(call).length, 0);
  return { prompt_tokens: Math.ceil(promptChars / 4), completion_tokens: Math.ceil(completionChars / 4) };
}

export function usageObject(usage: FakeUsage) {
  return { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
}

interface ChunkContext {
  id: string;
  model: string;
  created: number;
}

function chunk(context: ChunkContext, choices: unknown[], extra: Record<string, unknown> = {}) {
  return {
    id: context.id,
    object: 'chat.completion.chunk',
    created: context.created,
    model: context.model,
    choices,
    ...extra,
  };
}

/** The SSE chunk objects of a streamed answer, in order (without the final [DONE]). */
export function streamChunks(
  context: ChunkContext,
  answer: FakeAnswer,
  requestIndex: number,
  usage: FakeUsage | null,
): unknown[] {
  const chunks: unknown[] = [
    chunk(context, [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]),
  ];
  for (const piece of splitText(answer.text ?? '')) {
    chunks.push(chunk(context, [{ index: 0, delta: { content: piece }, finish_reason: null }]));
  }
  // SGLang leaves out `index`: pieces are told apart only by the id on each call's first piece, and by order
  const indexOf = (position: number) => (answer.toolCallDeltas === 'no_index' ? {} : { index: position });
  (answer.toolCalls ?? []).forEach((call, position) => {
    const head = {
      ...indexOf(position),
      id: callId(call, requestIndex, position),
      type: 'function',
      function: { name: call.name, arguments: '' },
    };
    chunks.push(chunk(context, [{ index: 0, delta: { tool_calls: [head] }, finish_reason: null }]));
    for (const piece of splitInto(argumentsText(call), 3)) {
      const part = { ...indexOf(position), function: { arguments: piece } };
      chunks.push(chunk(context, [{ index: 0, delta: { tool_calls: [part] }, finish_reason: null }]));
    }
  });
  chunks.push(chunk(context, [{ index: 0, delta: {}, finish_reason: finishReasonOf(answer) }]));
  if (usage) chunks.push(chunk(context, [], { usage: usageObject(usage) }));
  return chunks;
}

/** The body of a non-streamed answer. */
export function completionBody(
  context: ChunkContext,
  answer: FakeAnswer,
  requestIndex: number,
  usage: FakeUsage | null,
) {
  const toolCalls = (answer.toolCalls ?? []).map((call, position) => ({
    id: callId(call, requestIndex, position),
    type: 'function',
    function: { name: call.name, arguments: argumentsText(call) },
  }));
  return {
    id: context.id,
    object: 'chat.completion',
    created: context.created,
    model: context.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.text ?? (toolCalls.length ? null : ''),
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: finishReasonOf(answer),
        logprobs: null,
      },
    ],
    ...(usage ? { usage: usageObject(usage) } : {}),
  };
}
