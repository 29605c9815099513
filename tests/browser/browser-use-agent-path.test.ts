import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeToolCall, type ExecuteCallOptions } from '../../src/main/agent/tool-execution.js';
import { allowAllTools } from '../../src/main/approval/tool-gate.js';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { ToolCollection } from '../../src/main/tool/tool-collection.js';
import { browserUseTool } from '../../src/main/tool/browser-use.js';
import { webSearchTool } from '../../src/main/tool/web-search.js';
import type { AnyTool } from '../../src/main/tool/tool.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { TestToolContext } from '../support/tool-context.js';
import { browserContext } from './browser-test-kit.js';

let server: FixtureServer;
let ctx: TestToolContext;

beforeAll(async () => {
  server = await startFixtureServer({ '/hello': htmlPage('<button>Hi there</button>', 'Hello') });
  ctx = browserContext();
});

afterAll(async () => {
  await ctx?.resources.disposeAll();
  await closeSharedBrowsers();
  await server?.close();
});

function callOptions(): ExecuteCallOptions {
  return {
    sessionId: ctx.sessionId,
    workspace: ctx.workspace,
    agent: 'manus',
    tools: new ToolCollection([browserUseTool, webSearchTool] as AnyTool[]),
    resources: ctx.resources,
    emit: ctx.emit,
    signal: ctx.signal,
    gate: allowAllTools,
    maxObserve: 10_000,
  };
}

describe('browser_use through the agent tool runner', () => {
  it('shows the call as tool events with the screenshot attached', async () => {
    const outcome = await executeToolCall(
      {
        id: 'call-1',
        name: 'browser_use',
        arguments: JSON.stringify({ action: 'go_to_url', url: server.url('/hello') }),
      },
      callOptions(),
    );
    expect(outcome.observation).toContain('[1]<button>Hi there</button>');
    expect(outcome.observation).toContain('[1 image(s) attached]');
    const done = ctx.events.find(
      (event) => event.type === 'tool' && event.callId === 'call-1' && event.status === 'done',
    );
    expect(done?.type === 'tool' && done.images?.[0]?.mimeType).toBe('image/jpeg');
    const progress = ctx.events.find((event) => event.type === 'tool' && event.progress === 'Starting the browser');
    expect(progress).toBeDefined();
  });

  it('hands the model a readable error for missing parameters', async () => {
    const outcome = await executeToolCall(
      { id: 'call-2', name: 'browser_use', arguments: JSON.stringify({ action: 'click_element' }) },
      callOptions(),
    );
    expect(outcome.result.error).toContain('Invalid arguments for browser_use');
    expect(outcome.result.error).toContain('click_element needs `index`: the number of an element from the page state');
  });
});
