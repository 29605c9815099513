import { randomUUID } from 'node:crypto';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import { ImageSchema, type Image } from '../../shared/events.js';
import type { ToolGate } from '../tool/tool-gate.js';
import type { Llm } from '../llm/types.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import type { HumanChannel } from '../human/human-channel.js';
import { MAX_SAMPLING_TOKENS_PER_REQUEST, type SamplingLimits } from './sampling-limits.js';

/** the code the MCP specification gives a sampling request the person rejected */
const USER_REJECTED = -1;
/** how much of the model's answer the conversation shows */
const SHOWN_ANSWER_LIMIT = 2_000;

/** Sent to the server as the error of its request, with the code the specification gives a rejection. */
class SamplingDeclinedError extends Error {
  readonly code = USER_REJECTED;
  constructor(reason: string) {
    super(`The sampling request was declined: ${reason}`);
    this.name = 'SamplingDeclinedError';
  }
}

export interface SamplingDeps {
  gate: ToolGate;
  llm: Llm;
  human: HumanChannel;
  /** what each server's requests spent recently: past the limits, requests are refused unasked */
  limits: SamplingLimits;
}

/** The name a sampling request is approved under ("always allow" remembers it); no model tool can take it. */
export function samplingActionName(server: string): string {
  return `sampling:${server}`;
}

/**
 * A server's `sampling/createMessage`: within the server's rate and token limits, asked of the person under every
 * approval policy until they always-allow that server (the approval card shows the request), then sent to the
 * session's model; the answer is shown to the person too.
 */
export async function answerSampling(
  server: string,
  params: CreateMessageRequestParams,
  deps: SamplingDeps,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const messages = chatMessagesOf(params);
  const maxTokens = Math.min(params.maxTokens, MAX_SAMPLING_TOKENS_PER_REQUEST);
  const overLimit = deps.limits.refusal(server);
  if (overLimit) declined(server, deps, overLimit);
  const decision = await deps.gate({
    callId: randomUUID(),
    // the person's model and key answer: asked even under `auto`, unless they allowed this server for good
    tool: { name: samplingActionName(server), risk: 'execute', alwaysAsk: true },
    args: {
      server,
      ...(params.systemPrompt ? { systemPrompt: params.systemPrompt } : {}),
      messages: messages.filter((message) => message.role !== 'system').map(({ role, content }) => ({ role, content })),
      maxTokens,
    },
    signal,
  });
  if (!decision.allowed) declined(server, deps, decision.reason);
  // requests approved together may have filled the window meanwhile
  const filledMeanwhile = deps.limits.refusal(server);
  if (filledMeanwhile) declined(server, deps, filledMeanwhile);
  const settle = deps.limits.start(server);
  const reply = await deps.llm.ask(messages, { signal, stream: false, maxTokens });
  settle(reply.usage.totalTokens);
  const answer = clip(reply.text);
  deps.human.tell('info', 'mcp_sampling_answer', `The model answered MCP server "${server}": ${answer}`, {
    server,
    answer,
  });
  return {
    role: 'assistant',
    model: deps.llm.model,
    content: { type: 'text', text: reply.text },
    stopReason: reply.finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}

/** The person is told, and the server gets the rejection with this reason. */
function declined(server: string, deps: SamplingDeps, reason: string): never {
  deps.human.tell(
    'info',
    'mcp_sampling_declined',
    `MCP server "${server}" asked the model a question; not sent: ${reason}.`,
    {
      server,
    },
  );
  throw new SamplingDeclinedError(reason);
}

function chatMessagesOf(params: CreateMessageRequestParams): ChatMessage[] {
  const messages: ChatMessage[] = params.systemPrompt ? [{ role: 'system', content: params.systemPrompt }] : [];
  for (const message of params.messages) {
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const images = blocks.map(imageOf).filter((image): image is Image => image !== undefined);
    const text = blocks
      .map(describeBlock)
      .filter((part) => part !== undefined)
      .join('\n');
    messages.push({ role: message.role, content: text, ...(images.length > 0 ? { images } : {}) });
  }
  return messages;
}

function imageOf(block: SamplingMessageContentBlock): Image | undefined {
  if (block.type !== 'image') return undefined;
  const parsed = ImageSchema.safeParse({ mimeType: block.mimeType, data: block.data });
  return parsed.success ? parsed.data : undefined;
}

/** Text as it is; what the model cannot take is named so it knows something was there. */
function describeBlock(block: SamplingMessageContentBlock): string | undefined {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return ImageSchema.shape.mimeType.safeParse(block.mimeType).success ? undefined : `[image ${block.mimeType}]`;
    case 'audio':
      return `[audio ${block.mimeType}]`;
    case 'tool_use':
      return `[tool call ${block.name} ${JSON.stringify(block.input)}]`;
    case 'tool_result':
      return `[tool result ${JSON.stringify(block.content)}]`;
  }
}

function clip(text: string): string {
  return text.length > SHOWN_ANSWER_LIMIT ? `${text.slice(0, SHOWN_ANSWER_LIMIT - 1)}…` : text;
}
