import { z } from 'zod';
import { ImageSchema } from './events.js';

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
