import { describe, expect, it } from 'vitest';
import { MaskedSettingsSchema } from '../../src/shared/contract.js';
import {
  LlmEntrySchema,
  McpServerEntrySchema,
  MIN_MEMORY_MB,
  MIN_WORKSPACE_QUOTA_MB,
  fieldProblems,
  isHttpUrl,
} from '../../src/renderer/src/features/settings/settings-schemas.js';

const provider = {
  provider: 'compatible',
  model: 'llama3',
  baseUrl: 'http://127.0.0.1:11434/v1',
  maxTokens: 4096,
  contextWindow: 128_000,
  vision: 'auto',
  toolCalling: 'auto',
  requestTimeoutMs: 120_000,
  maxAttempts: 6,
};
const stdioServer = { type: 'stdio', command: 'npx', args: [], env: {}, enabled: true, toolApproval: {} };

describe('settings forms validate with the contract', () => {
  it('names each refused field with the form message, and zod’s own message where the form has none', () => {
    expect(fieldProblems(LlmEntrySchema, provider, {})).toEqual({});
    const problems = fieldProblems(
      LlmEntrySchema,
      { ...provider, model: '', baseUrl: 'not a url' },
      { baseUrl: 'Bad URL' },
    );
    expect(problems.baseUrl).toBe('Bad URL');
    expect(problems.model).toMatch(/\S/);
    expect(Object.keys(problems).sort()).toEqual(['baseUrl', 'model']);
  });

  it('checks MCP servers by their transport: a command for stdio, a URL for the remote ones', () => {
    const messages = { command: 'Enter the command', url: 'Bad URL' };
    expect(fieldProblems(McpServerEntrySchema, stdioServer, messages)).toEqual({});
    expect(fieldProblems(McpServerEntrySchema, { ...stdioServer, command: '' }, messages)).toEqual({
      command: 'Enter the command',
    });
    const remote = { type: 'http', url: 'nope', headers: {}, oauth: {}, enabled: true, toolApproval: {} };
    expect(fieldProblems(McpServerEntrySchema, remote, messages)).toEqual({ url: 'Bad URL' });
    expect(fieldProblems(McpServerEntrySchema, { ...remote, url: 'https://mcp.example.com/mcp' }, messages)).toEqual(
      {},
    );
  });

  it('asks for http or https endpoints, which the contract’s URL rule alone would not', () => {
    expect(isHttpUrl('https://api.openai.com/v1')).toBe(true);
    expect(isHttpUrl('http://localhost:11434/v1')).toBe(true);
    for (const url of ['localhost:11434', 'ftp://files.example.com', 'http://a b', '']) {
      expect(isHttpUrl(url), url).toBe(false);
    }
    expect(fieldProblems(LlmEntrySchema, { ...provider, baseUrl: 'localhost:11434' }, {})).toEqual({});
  });

  it('takes the sandbox form’s lower bounds from the contract', () => {
    const sandbox = (limits: Record<string, number>) => MaskedSettingsSchema.safeParse({ sandbox: limits }).success;
    expect(MIN_MEMORY_MB).toBeGreaterThan(0);
    expect(sandbox({ memoryMb: MIN_MEMORY_MB })).toBe(true);
    expect(sandbox({ memoryMb: MIN_MEMORY_MB - 1 })).toBe(false);
    expect(sandbox({ workspaceQuotaMb: MIN_WORKSPACE_QUOTA_MB })).toBe(true);
    expect(sandbox({ workspaceQuotaMb: MIN_WORKSPACE_QUOTA_MB - 1 })).toBe(false);
  });
});
