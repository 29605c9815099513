import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { Image } from '../../shared/events.js';
import type { ImageDetail } from '../../shared/settings/vision-settings.js';
import { parametersFor, type SchemaDialect } from './schema-dialects.js';
import type { ToolSpec } from './types.js';
import type { ChatMessage } from '../../shared/chat-message.js';

export interface WireOptions {
  /** sent as `detail` on every image part */
  imageDetail?: ImageDetail;
}

function imagePart(image: Image, detail: ImageDetail | undefined): ChatCompletionContentPart {
  const url = `data:${image.mimeType};base64,${image.data}`;
  return { type: 'image_url', image_url: detail ? { url, detail } : { url } };
}

function userContent(text: string, images: Image[], options: WireOptions): string | ChatCompletionContentPart[] {
  if (images.length === 0) return text;
  return [
    ...(text ? [{ type: 'text' as const, text }] : []),
    ...images.map((image) => imagePart(image, options.imageDetail)),
  ];
}

/**
 * Convert memory to the chat.completions format. Tool results cannot carry images, so images of a run of tool
 * results follow it as one user message (placed after the run so no tool result is separated from its call).
 */
export function toWireMessages(
  messages: readonly ChatMessage[],
  options: WireOptions = {},
): ChatCompletionMessageParam[] {
  const wire: ChatCompletionMessageParam[] = [];
  let pendingToolImages: Image[] = [];
  const flushToolImages = () => {
    if (pendingToolImages.length === 0) return;
    wire.push({
      role: 'user',
      content: userContent('Images returned by the tools above:', pendingToolImages, options),
    });
    pendingToolImages = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flushToolImages();
    const text = message.content ?? '';
    switch (message.role) {
      case 'system':
        wire.push({ role: 'system', content: text });
        break;
      case 'user':
        wire.push({ role: 'user', content: userContent(text, message.images ?? [], options) });
        break;
      case 'assistant':
        wire.push({
          role: 'assistant',
          content: message.content ?? (message.toolCalls?.length ? null : ''),
          ...(message.toolCalls?.length
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        });
        break;
      case 'tool':
        wire.push({ role: 'tool', tool_call_id: message.toolCallId ?? '', content: text });
        pendingToolImages.push(...(message.images ?? []));
        break;
    }
  }
  flushToolImages();
  return wire;
}

/** The tools in the chat.completions format, their schemas as the provider family accepts them. */
export function toWireTools(
  tools: readonly ToolSpec[],
  dialect: SchemaDialect = 'plain',
): ChatCompletionFunctionTool[] {
  return tools.map((tool) => {
    const { parameters, strict } = parametersFor(dialect, tool.parameters);
    // Gemini refuses an object schema without properties: a tool without parameters goes without the schema
    const empty = dialect === 'gemini' && Object.keys((parameters.properties as object | undefined) ?? {}).length === 0;
    return {
      type: 'function',
      function: {
        name: tool.name,
        description: tool.description,
        ...(empty ? {} : { parameters }),
        ...(strict ? { strict } : {}),
      },
    };
  });
}
