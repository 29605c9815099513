import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import type { Image } from '../../shared/events.js';
import type { ImageDetail } from '../../shared/settings/vision-settings.js';
import type { ToolSpec } from './types.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import { imageSize } from './image-size.js';
import { usesLegacyEncoding } from './model-traits.js';

/** Special tokens (`<|endoftext|>`, `<|im_start|>`...) in a task, a page or a tool output are counted as the plain text they are. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };
/** BPE is quadratic in the length of one pre-token: long runs (base64, minified code) are counted in slices. */
const SLICE_CHARS = 1024;
/** OpenAI's chat format: every message costs a few tokens around its content; the reply is primed with 3. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
const REPLY_PRIMING_TOKENS = 3;
const TOKENS_PER_TOOL_CALL = 8;
const TOKENS_PER_TOOL_SPEC = 10;
const TOOLS_PREAMBLE_TOKENS = 12;
/** Image pricing (gpt-4o family): a base cost plus a cost per 512-px tile after scaling. */
const IMAGE_BASE_TOKENS = 85;
const IMAGE_TILE_TOKENS = 170;
const IMAGE_TILE_PX = 512;
const IMAGE_MAX_SIDE_PX = 2048;
const IMAGE_SHORT_SIDE_PX = 768;
/** A 1024×1024 image, assumed when the size cannot be read. */
const UNKNOWN_IMAGE_TOKENS = 765;

export function imageTokensForSize(width: number, height: number): number {
  let scaledWidth = width;
  let scaledHeight = height;
  const fit = Math.min(1, IMAGE_MAX_SIDE_PX / Math.max(scaledWidth, scaledHeight));
  scaledWidth *= fit;
  scaledHeight *= fit;
  const shorten = Math.min(1, IMAGE_SHORT_SIDE_PX / Math.min(scaledWidth, scaledHeight));
  scaledWidth *= shorten;
  scaledHeight *= shorten;
  const tiles = Math.ceil(scaledWidth / IMAGE_TILE_PX) * Math.ceil(scaledHeight / IMAGE_TILE_PX);
  return IMAGE_BASE_TOKENS + IMAGE_TILE_TOKENS * tiles;
}

/** `low` detail: one 512-px look at any image, the base cost only */
export function imageTokens(image: Image, detail: ImageDetail = 'auto'): number {
  if (detail === 'low') return IMAGE_BASE_TOKENS;
  const size = imageSize(image.data);
  if (!size || size.width === 0 || size.height === 0) return UNKNOWN_IMAGE_TOKENS;
  return imageTokensForSize(size.width, size.height);
}

export interface TokenCounter {
  text(text: string): number;
  /** one message as sent, images included only when the model takes them */
  message(message: ChatMessage): number;
  /** a whole request's messages, reply priming included */
  messages(messages: readonly ChatMessage[]): number;
  tools(tools: readonly ToolSpec[]): number;
}

/** Counts tokens with the model's tokenizer (o200k_base or cl100k_base). Message counts are memoised per object. */
export function createTokenCounter(
  model: string,
  options: { vision: boolean; imageDetail?: ImageDetail },
): TokenCounter {
  const countTokens = usesLegacyEncoding(model) ? countCl100k : countO200k;
  const countRaw = (value: string): number => countTokens(value, PLAIN_TEXT);
  const memo = new WeakMap<ChatMessage, { contentLength: number; tokens: number }>();

  function text(value: string): number {
    if (value.length <= SLICE_CHARS) return countRaw(value);
    let total = 0;
    for (let at = 0; at < value.length; at += SLICE_CHARS) total += countRaw(value.slice(at, at + SLICE_CHARS));
    return total;
  }

  function uncachedMessage(message: ChatMessage): number {
    let tokens = TOKENS_PER_MESSAGE + text(message.role) + text(message.content ?? '');
    if (message.name) tokens += TOKENS_PER_NAME + text(message.name);
    for (const call of message.toolCalls ?? []) {
      tokens += TOKENS_PER_TOOL_CALL + text(call.name) + text(call.arguments) + text(call.id);
    }
    if (message.toolCallId) tokens += text(message.toolCallId);
    if (options.vision) for (const image of message.images ?? []) tokens += imageTokens(image, options.imageDetail);
    return tokens;
  }

  function message(entry: ChatMessage): number {
    const contentLength = entry.content?.length ?? 0;
    const known = memo.get(entry);
    if (known && known.contentLength === contentLength) return known.tokens;
    const tokens = uncachedMessage(entry);
    memo.set(entry, { contentLength, tokens });
    return tokens;
  }

  return {
    text,
    message,
    messages: (entries) => entries.reduce((sum, entry) => sum + message(entry), REPLY_PRIMING_TOKENS),
    tools: (tools) =>
      tools.length === 0
        ? 0
        : tools.reduce(
            (sum, tool) =>
              sum +
              TOKENS_PER_TOOL_SPEC +
              text(tool.name) +
              text(tool.description) +
              text(JSON.stringify(tool.parameters)),
            TOOLS_PREAMBLE_TOKENS,
          ),
  };
}
