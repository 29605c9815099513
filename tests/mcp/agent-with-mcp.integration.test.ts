import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/main/store/store.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import { saveSettings } from '../../src/main/config/settings-store.js';
import { updateMcpSettings } from '../../src/main/mcp/mcp-settings-store.js';
import { cliServeDeps } from '../../src/main/cli/commands/serve-deps.js';
import { taskRunnerFor } from '../../src/main/mcp/server/task-service.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { EVERYTHING_ENTRY } from './support/reference-servers.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const finish = (text: string) => ({ text, toolCalls: [call('terminate', { status: 'success' })] });

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function toolNamesOf(request: FakeLlm['chatRequests'][number]): string[] {
  return (request.body.tools ?? []).map((tool: { function: { name: string } }) => tool.function.name);
}

describe('the agent with MCP servers (served app core)', () => {
  it('offers MCP tools with their schema, runs them, and a change saved by `manus mcp` meanwhile applies to the next task', async () => {
    const llm = await startFakeLlm();
    const dataDir = mkdtempSync(join(tmpdir(), 'manus-agent-mcp-'));
    const store = openStore(dataDir);
    cleanups.push(
      () => llm.close(),
      () => rmSync(dataDir, { recursive: true, force: true }),
      () => store.close(),
    );
    const data = { dataDir, store, secrets: FileKeySecretBox.inDataDir(dataDir) };
    saveSettings(store, data.secrets, {
      llms: { test: { provider: 'openai', model: 'test-model', baseUrl: llm.baseUrl, apiKey: 'sk-test' } },
      defaultLlm: 'test',
      mcp: { servers: { everything: { type: 'stdio', command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] } } },
    });
    const service = cliServeDeps.createTaskService(data);
    cleanups.push(() => service.close());
    const runTask = taskRunnerFor(service);
    const run = (task: string) => runTask(task, { signal: new AbortController().signal, onProgress: () => undefined });

    llm.setScript(
      sequence({ text: 'Echoing.', toolCalls: [call('mcp_everything_echo', { message: 'via MCP' })] }, finish('Done.')),
    );
    const outcome = await run('Echo something');
    expect(outcome.status).toBe('finished');
    const [first, second] = llm.chatRequests.slice(-2);
    expect(toolNamesOf(first)).toContain('mcp_everything_echo');
    const echoSpec = first.body.tools.find(
      (tool: { function: { name: string } }) => tool.function.name === 'mcp_everything_echo',
    );
    expect(echoSpec.function.parameters.properties).toHaveProperty('message');
    expect(JSON.stringify(second.body.messages)).toContain('Echo: via MCP');

    updateMcpSettings(store, data.secrets, (current) => ({
      ...current,
      servers: { ...current.servers, everything: { ...current.servers.everything, enabled: false } },
    }));
    llm.setScript(sequence(finish('No MCP now.')));
    await run('Anything else?');
    expect(toolNamesOf(llm.chatRequests.at(-1)!).some((name) => name.startsWith('mcp_'))).toBe(false);
  });
});
