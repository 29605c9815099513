import { describe, expect, it } from 'vitest';
import { toToolResult } from '../../src/main/mcp/tool-result.js';
import { mcpToolApproval } from '../../src/main/mcp/mcp-approval.js';
import { McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';

const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('toToolResult', () => {
  it('keeps text and images, inlines text resources and summarises binaries', () => {
    const result = toToolResult({
      content: [
        { type: 'text', text: 'first' },
        { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
        { type: 'image', data: 'AAAA', mimeType: 'image/tiff' },
        { type: 'audio', data: 'AAAAAA==', mimeType: 'audio/wav' },
        { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'inline text' } },
        { type: 'resource', resource: { uri: 'file:///b.bin', mimeType: 'application/zip', blob: 'AAAAAAAA' } },
        { type: 'resource_link', uri: 'file:///c.md', name: 'c.md', description: 'the notes' },
      ],
    });
    expect(result.images).toEqual([{ mimeType: 'image/png', data: PNG_1X1 }]);
    expect(result.output?.split('\n')).toEqual([
      'first',
      '[image image/tiff, 3 bytes: a type the model cannot be shown]',
      '[audio audio/wav, 4 bytes]',
      '[resource file:///a.txt (text/plain)]',
      'inline text',
      '[resource file:///b.bin (application/zip): binary, 6 bytes]',
      '[resource link c.md file:///c.md: the notes]',
    ]);
  });

  it('turns isError into an error result and falls back to structured content', () => {
    expect(toToolResult({ content: [{ type: 'text', text: 'boom' }], isError: true })).toEqual({ error: 'boom' });
    expect(toToolResult({ content: [], structuredContent: { sum: 3 } })).toEqual({ output: '{"sum":3}' });
  });
});

describe('mcpToolApproval', () => {
  it('finds the per-tool choice by the model-facing name', () => {
    const settings = McpSettingsSchema.parse({
      servers: { 'my fs': { type: 'stdio', command: 'x', toolApproval: { write_file: 'ask', 'read.file': 'auto' } } },
    });
    expect(mcpToolApproval(settings, 'mcp_my_fs_write_file')).toBe('ask');
    expect(mcpToolApproval(settings, 'mcp_my_fs_read_file')).toBe('auto');
    expect(mcpToolApproval(settings, 'bash')).toBeUndefined();
  });
});
