import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import { ImageSchema, type Image } from '../../shared/events.js';
import { base64Bytes } from '../llm/image-size.js';
import type { ToolResult } from '../tool/tool.js';

/** What the model reads of an MCP tool result: text inline, images as images, binaries summarised. */
export function toToolResult(result: CallToolResult): ToolResult {
  const texts: string[] = [];
  const images: Image[] = [];
  for (const block of result.content ?? []) {
    const image = asImage(block);
    if (image) images.push(image);
    else texts.push(describeBlock(block));
  }
  if (texts.length === 0 && result.structuredContent !== undefined)
    texts.push(JSON.stringify(result.structuredContent));
  const text = texts.join('\n');
  const extra = images.length > 0 ? { images } : {};
  if (result.isError) return { error: text || 'the MCP tool reported an error without a message', ...extra };
  return { output: text || (images.length > 0 ? `${images.length} image(s)` : '(no output)'), ...extra };
}

function asImage(block: ContentBlock): Image | undefined {
  if (block.type !== 'image') return undefined;
  const parsed = ImageSchema.safeParse({ mimeType: block.mimeType, data: block.data });
  return parsed.success ? parsed.data : undefined;
}

function describeBlock(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image ${block.mimeType}, ${base64Bytes(block.data)} bytes: a type the model cannot be shown]`;
    case 'audio':
      return `[audio ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource': {
      const resource = block.resource;
      const mime = resource.mimeType ? ` (${resource.mimeType})` : '';
      if ('text' in resource) return `[resource ${resource.uri}${mime}]\n${resource.text}`;
      return `[resource ${resource.uri}${mime}: binary, ${base64Bytes(resource.blob)} bytes]`;
    }
    case 'resource_link': {
      const mime = block.mimeType ? ` (${block.mimeType})` : '';
      const about = block.description ? `: ${block.description}` : '';
      return `[resource link ${block.name} ${block.uri}${mime}${about}]`;
    }
  }
}
