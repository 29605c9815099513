import { z } from 'zod';
import { ImageDetailSchema } from './vision-settings.js';

/**
 * 4 M characters: eight times the longest reply any model's output limit allows today (128 K tokens ≈ 0.5 M
 * characters), small enough that a server streaming without end cannot take the app's memory with it.
 */
export const DEFAULT_MAX_REPLY_CHARS = 4_000_000;

export const LLM_PROVIDERS = ['openai', 'azure', 'compatible'] as const;

export const LlmConfigSchema = z.object({
  provider: z.enum(LLM_PROVIDERS).default('openai'),
  model: z.string().min(1),
  /** OpenAI-compatible base URL (Ollama, DeepSeek, OpenRouter, vLLM, LM Studio, Anthropic/Gemini compat...) */
  baseUrl: z.string().url().optional(),
  apiKey: z.string().optional(),
  /** Azure only */
  apiVersion: z.string().optional(),
  /** Azure only: deployment name (defaults to the model) */
  deployment: z.string().optional(),
  maxTokens: z.number().int().positive().default(4096),
  temperature: z.number().min(0).max(2).optional(),
  /** context window of the model in tokens; the conversation is fitted into it */
  contextWindow: z.number().int().positive().default(128_000),
  /** whether the model takes images; 'auto' decides from the model name */
  vision: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /** the `detail` of the images this model is sent; a session fills it from the app's imageDetail when unset */
  imageDetail: ImageDetailSchema.optional(),
  /** whether the model does native tool calling; 'auto' tries and falls back to JSON in text */
  toolCalling: z.union([z.boolean(), z.literal('auto')]).default('auto'),
  /** USD per million tokens, for cost in usage events */
  pricing: z.object({ prompt: z.number().nonnegative(), completion: z.number().nonnegative() }).optional(),
  requestTimeoutMs: z.number().int().positive().default(120_000),
  maxAttempts: z.number().int().min(1).max(6).default(6),
  /** characters of one reply (text and tool calls) past which its stream is cut with `reply_too_large` */
  maxReplyChars: z.number().int().positive().default(DEFAULT_MAX_REPLY_CHARS),
});
export type LlmConfig = z.infer<typeof LlmConfigSchema>;
export type LlmConfigInput = z.input<typeof LlmConfigSchema>;
