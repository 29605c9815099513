import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { LlmConfig } from '../../shared/settings/llm-config.js';
import { isReasoningModel } from './model-traits.js';
import type { ToolChoice } from './types.js';

export interface RequestParts {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionFunctionTool[];
  toolChoice?: ToolChoice;
  maxTokens: number;
}

/** The chat.completions body (without `stream`): reasoning models get max_completion_tokens and no temperature. */
export function requestBody(config: LlmConfig, parts: RequestParts): ChatCompletionCreateParamsNonStreaming {
  const reasoning = isReasoningModel(config.model);
  return {
    model: config.model,
    messages: parts.messages,
    ...(reasoning ? { max_completion_tokens: parts.maxTokens } : { max_tokens: parts.maxTokens }),
    ...(!reasoning && config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(parts.tools?.length ? { tools: parts.tools, tool_choice: parts.toolChoice ?? 'auto' } : {}),
  };
}
