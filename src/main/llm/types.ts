import type { UsageTotals } from '../../shared/events.js';
import type { ChatMessage, ToolCall } from '../../shared/chat-message.js';
import type { NoticeArgs } from '../../shared/notice-codes.js';
import type { LlmNoticeCode } from './notices.js';

/** A tool as the model sees it. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export type ToolChoice = 'auto' | 'required' | 'none';

export interface LlmHooks {
  /** a streamed chunk of assistant text */
  onDelta?: (chunk: string) => void;
  /** a request finished; usage of that request */
  onUsage?: (usage: UsageTotals, model: string) => void;
  /** something the user should know (image dropped, fallback used, retrying); `params` fill in its translation */
  onNotice?: (...notice: NoticeArgs<LlmNoticeCode>) => void;
}

export interface AskOptions extends LlmHooks {
  signal?: AbortSignal;
  /** stream the reply (default true) */
  stream?: boolean;
  /** override the configured max tokens for the completion */
  maxTokens?: number;
}

export interface AskToolOptions extends AskOptions {
  tools: ToolSpec[];
  toolChoice?: ToolChoice;
}

export interface LlmReply {
  text: string;
  toolCalls: ToolCall[];
  usage: UsageTotals;
  finishReason: string | null;
}

/** What agents and flows need from a model; `LlmClient` implements it over the openai SDK. */
export interface Llm {
  readonly model: string;
  readonly supportsVision: boolean;
  ask(messages: ChatMessage[], options?: AskOptions): Promise<LlmReply>;
  askTool(messages: ChatMessage[], options: AskToolOptions): Promise<LlmReply>;
}
