import { z } from 'zod';
import { ImageSchema, type UsageTotals } from '../../shared/events.js';

export const ToolCallSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** raw JSON text as the model wrote it; parsed and validated by the agent */
  arguments: z.string(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** One entry of an agent's memory; converted to the provider's format by the LLM client. */
export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string().nullable(),
  images: z.array(ImageSchema).optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
  /** for role=tool: the call this message answers */
  toolCallId: z.string().optional(),
  /** for role=tool: the tool's name */
  name: z.string().optional(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

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
  /** something the user should know (image dropped, fallback used, retrying) */
  onNotice?: (code: string, text: string) => void;
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
