import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Image } from '../../src/shared/events.js';
import { imageSize } from '../../src/main/llm/image-size.js';
import { supportsVision } from '../../src/main/llm/model-traits.js';
import { createTokenCounter, imageTokens, imageTokensForSize } from '../../src/main/llm/tokens.js';
import { fakeLlmClient, noticeCollector } from './llm-fixture.js';

/** A real (grey) PNG of the given size. */
function png(width: number, height: number): Image {
  const chunk = (type: string, body: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    const crc = Buffer.alloc(4); // decoders used here only read the header
    return Buffer.concat([length, Buffer.from(type, 'ascii'), body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  const data = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return { mimeType: 'image/png', data: data.toString('base64') };
}

describe('images and vision', () => {
  it('decides vision from the setting or the model name', () => {
    expect(supportsVision({ model: 'gpt-4o', vision: 'auto' })).toBe(true);
    expect(supportsVision({ model: 'openai/gpt-4.1-mini', vision: 'auto' })).toBe(true);
    expect(supportsVision({ model: 'llava:13b', vision: 'auto' })).toBe(true);
    expect(supportsVision({ model: 'deepseek-chat', vision: 'auto' })).toBe(false);
    expect(supportsVision({ model: 'o3-mini', vision: 'auto' })).toBe(false);
    expect(supportsVision({ model: 'gpt-3.5-turbo', vision: 'auto' })).toBe(false);
    expect(supportsVision({ model: 'deepseek-chat', vision: true })).toBe(true);
    expect(supportsVision({ model: 'gpt-4o', vision: false })).toBe(false);
  });

  it('drops images for a model that cannot take them, with a notice', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'I cannot see it' }), { model: 'deepseek-chat' });
    const { notices, onNotice } = noticeCollector();
    expect(llm.supportsVision).toBe(false);
    await llm.ask([{ role: 'user', content: 'What is on the screenshot?', images: [png(64, 64), png(32, 32)] }], {
      onNotice,
    });
    expect(notices).toEqual([
      { code: 'image_dropped', text: '2 image(s) left out: model deepseek-chat does not take images' },
    ]);
    const sent = server.chatRequests[0].body.messages[0];
    expect(typeof sent.content).toBe('string');
    expect(sent.content).toMatch(/^What is on the screenshot\?\n\[2 image\(s\) left out/);
  });

  it('sends images to a vision model, tool images after the run of tool results', async () => {
    const { server, llm } = await fakeLlmClient(() => ({ text: 'a grey square' }), { model: 'gpt-4o' });
    const { notices, onNotice } = noticeCollector();
    const image = png(16, 16);
    await llm.ask(
      [
        { role: 'user', content: 'Look', images: [image] },
        {
          role: 'assistant',
          content: null,
          toolCalls: [
            { id: 'a', name: 'browser_use', arguments: '{"action":"screenshot"}' },
            { id: 'b', name: 'bash', arguments: '{"command":"ls"}' },
          ],
        },
        { role: 'tool', toolCallId: 'a', content: 'screenshot taken', images: [image] },
        { role: 'tool', toolCallId: 'b', content: 'a.txt' },
      ],
      { onNotice },
    );
    expect(notices).toEqual([]);
    const sent = server.chatRequests[0].body.messages;
    expect(sent[0].content).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image_url', image_url: { url: `data:image/png;base64,${image.data}` } },
    ]);
    expect(sent.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expect(sent[2]).toEqual({ role: 'tool', tool_call_id: 'a', content: 'screenshot taken' });
    expect(sent[4].content[1].type).toBe('image_url');
  });

  it('counts image tokens by 512-px tiles like OpenAI', () => {
    expect(imageSize(png(1024, 768).data)).toEqual({ width: 1024, height: 768 });
    // 1024×1024 → 768×768 → 4 tiles
    expect(imageTokensForSize(1024, 1024)).toBe(85 + 170 * 4);
    // 2048×4096 → 1024×2048 → 768×1536 → 2×3 tiles
    expect(imageTokensForSize(2048, 4096)).toBe(85 + 170 * 6);
    // small images are one tile
    expect(imageTokens(png(100, 50))).toBe(255);
    const withImage = createTokenCounter('gpt-4o', { vision: true });
    const blind = createTokenCounter('gpt-4o', { vision: false });
    const message = { role: 'user' as const, content: 'see', images: [png(1024, 1024)] };
    expect(withImage.message(message) - blind.message(message)).toBe(765);
    // low detail is one 512-px look whatever the size
    const lowDetail = createTokenCounter('gpt-4o', { vision: true, imageDetail: 'low' });
    expect(lowDetail.message(message) - blind.message(message)).toBe(85);
  });
});
