import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../src/main/app/app-core.js';
import { saveSettings } from '../../src/main/config/settings-store.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { openStore } from '../../src/main/store/store.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { EVERYTHING_ENTRY } from '../mcp/support/reference-servers.js';

let core: AppCore | undefined;
let llm: FakeLlm | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await core?.close();
  core?.store.close();
  await llm?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  core = undefined;
});

describe('the app core', () => {
  it('gives sessions the tools of the enabled MCP servers and reports the ones that fail', async () => {
    llm = await startFakeLlm(
      sequence(
        { toolCalls: [{ name: 'mcp_everything_echo', arguments: { message: 'hello over MCP' }, id: 'm1' }] },
        { text: 'Echoed.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] },
      ),
    );
    dataDir = mkdtempSync(join(tmpdir(), 'manus-core-'));
    const store = openStore(dataDir);
    const secrets = FileKeySecretBox.inDataDir(dataDir);
    saveSettings(store, secrets, {
      llms: { test: { model: 'test-model', baseUrl: llm.baseUrl, apiKey: 'sk-test' } },
      defaultLlm: 'test',
      mcp: {
        servers: {
          everything: { type: 'stdio', command: process.execPath, args: [EVERYTHING_ENTRY, 'stdio'] },
          broken: { type: 'stdio', command: 'manus-no-such-binary' },
        },
      },
    });
    core = createAppCore({ dataDir, store, secrets, humanAvailable: false });
    const { sessionId, done } = core.service.start({ task: 'echo something' });
    expect(await done).toMatchObject({ status: 'finished', result: 'Echoed.' });

    const offered = llm.chatRequests[0].body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(offered).toContain('mcp_everything_echo');
    const toolMessage = llm.chatRequests[1].body.messages.find((m: { role: string }) => m.role === 'tool');
    expect(toolMessage).toMatchObject({ tool_call_id: 'm1' });
    expect(toolMessage.content).toContain('hello over MCP');
    const notices = store.listEvents(sessionId).filter((e) => e.type === 'notice' && e.code === 'mcp_failed');
    expect(notices).toHaveLength(1);
    expect(notices[0].type === 'notice' && notices[0].text).toContain('broken');
  });
});
