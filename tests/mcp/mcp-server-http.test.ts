import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createManusMcpServer } from '../../src/main/mcp/server/manus-mcp-server.js';
import { serveMcpOverHttp, type McpHttpServer } from '../../src/main/mcp/server/serve.js';
import { createToolContext } from '../support/tool-context.js';
import { defineTool, toolOutput, type AnyTool } from '../../src/main/tool/tool.js';

/** A small real tool: writes a note into the session workspace and hands back the path it wrote. */
const noteTool = defineTool({
  name: 'write_note',
  kind: 'generic',
  description: 'Write a note file into the workspace',
  parameters: z.object({ file: z.string(), text: z.string() }),
  risk: 'write',
  async execute(args, ctx) {
    await writeFile(join(ctx.workspace, args.file), args.text);
    return toolOutput(`wrote ${args.text.length} characters to ${args.file} in session ${ctx.sessionId}`);
  },
}) as AnyTool;

let served: McpHttpServer | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

async function connect(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  return client;
}

describe('manus MCP server over streamable HTTP', () => {
  it('serves the tools to the SDK client with the right token and refuses a wrong one', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'manus-mcp-ws-'));
    const { session } = createToolContext({ sessionId: 'mcp-server-test', workspace });
    served = await serveMcpOverHttp(() => createManusMcpServer({ tools: [noteTool], session }), {
      port: 0,
      token: 'right-token-0123456789',
    });
    expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const client = await connect(served.url, 'right-token-0123456789');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['write_note']);
    expect(tools[0].inputSchema).toMatchObject({ type: 'object', required: ['file', 'text'] });

    const result = await client.callTool({ name: 'write_note', arguments: { file: 'a.txt', text: 'hello' } });
    expect(result.isError).toBe(false);
    expect(result.content).toEqual([{ type: 'text', text: 'wrote 5 characters to a.txt in session mcp-server-test' }]);
    expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('hello');

    const invalid = await client.callTool({ name: 'write_note', arguments: { file: 3 } });
    expect(invalid.isError).toBe(true);
    expect(JSON.stringify(invalid.content)).toMatch(/Invalid arguments for write_note/);
    await client.close();

    await expect(connect(served.url, 'wrong-token')).rejects.toThrow(/401|Unauthorized|bearer/i);
    const bare = await fetch(served.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bare.status).toBe(401);
    expect(bare.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });
});
