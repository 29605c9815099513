import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoreEventSchema, type CoreEventOf } from '../../src/shared/events.js';
import type { ToolKind } from '../../src/shared/tool-kind.js';
import { ToolResultDataSchema } from '../../src/shared/tool-result.js';
import { builtinTools } from '../../src/main/tool/builtin-tools.js';
import { planningTool } from '../../src/main/flow/planning-tool.js';
import { openStore } from '../../src/main/store/store.js';
import { SessionMcp } from '../../src/main/mcp/session-mcp.js';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { removeSessionSandbox } from '../../src/main/sandbox/session-sandbox.js';
import { sequence } from '../support/fake-llm/index.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import { CHROMIUM } from '../browser/browser-test-kit.js';
import { EVERYTHING_ENTRY } from '../mcp/support/reference-servers.js';
import { fakeEngineRoutes } from '../search/search-fixtures.js';

const call = (name: string, args: unknown, id: string) => ({ name, arguments: JSON.stringify(args), id });
const step = (name: string, args: unknown, id: string) => ({ text: '', toolCalls: [call(name, args, id)] });

let site: FixtureServer;
let harness: CoreHarness | undefined;
let sessionId = '';

beforeAll(async () => {
  site = await startFixtureServer({ '/page/1': htmlPage('<h1>First result</h1>', 'First result') });
  for (const [path, route] of Object.entries(fakeEngineRoutes(site.baseUrl))) site.route(path, route);
});

afterAll(async () => {
  await harness?.close();
  if (sessionId) await removeSessionSandbox(sessionId);
  await closeSharedBrowsers();
  await site?.close();
});

describe('tool events', () => {
  it('every built-in tool declares the kind of view its calls open into', () => {
    const store = openStore(mkdtempSync(join(tmpdir(), 'manus-kinds-')));
    const kinds: Record<string, ToolKind> = Object.fromEntries(
      [...Object.values(builtinTools), planningTool(store.plans, [])].map((tool) => [tool.name, tool.kind]),
    );
    store.close();
    expect(kinds).toEqual({
      python_execute: 'python',
      bash: 'bash',
      str_replace_editor: 'file',
      read_document: 'generic',
      search_files: 'generic',
      browser_use: 'browser',
      web_search: 'search',
      ask_human: 'generic',
      create_chat_completion: 'generic',
      terminate: 'generic',
      planning: 'plan',
    });
  });

  it("carry the called tool's kind, and its structured result where it has one, from the agent to the store", async () => {
    const sessionMcp = new SessionMcp(mkdtempSync(join(tmpdir(), 'manus-mcp-logs-')));
    harness = await startCoreHarness(
      sequence(
        step('python_execute', { code: 'print(6 * 7)' }, 'py'),
        step('bash', { command: 'echo hello' }, 'sh'),
        step('str_replace_editor', { command: 'create', path: 'note.txt', file_text: 'hi\n' }, 'ed'),
        step('browser_use', { action: 'go_to_url', url: site.url('/page/1') }, 'web'),
        step('web_search', { query: 'manus', num_results: 2 }, 'find'),
        step('ask_human', { inquire: 'Which colour?' }, 'ask'),
        step('mcp_everything_echo', { message: 'via MCP' }, 'mcp'),
        step('no_such_tool', {}, 'none'),
        { text: 'Done.', toolCalls: [call('terminate', { status: 'success' }, 'end')] },
      ),
      {
        settings: {
          browser: { executablePath: CHROMIUM, allowPrivateNetwork: true },
          search: {
            engine: 'duckduckgo',
            fallbackEngines: [],
            engines: { duckduckgo: { baseUrl: site.url('/ddg/html/') } },
          },
          mcp: { servers: { everything: { type: 'stdio', command: 'node', args: [EVERYTHING_ENTRY, 'stdio'] } } },
        },
        service: {
          extraTools: sessionMcp.extraTools,
          onSessionLive: sessionMcp.open,
          onSessionReleased: sessionMcp.close,
          prepareRun: async ({ session }) => {
            await sessionMcp.ready(session);
          },
        },
      },
    );
    harness.service.subscribe((event) => {
      if (event.type === 'ask' && event.status === 'waiting')
        harness!.service.answer(event.sessionId, event.askId, 'blue');
    });
    const run = harness.service.start({ task: 'Use every tool once' });
    sessionId = run.sessionId;
    expect(await run.done).toMatchObject({ status: 'finished', result: 'Done.' });

    const stored = harness.store.listEvents(sessionId);
    for (const event of stored) expect(CoreEventSchema.safeParse(event).success).toBe(true);
    const toolEvents = stored.filter((event): event is CoreEventOf<'tool'> => event.type === 'tool');
    // the agent loop's own events (calling, then the outcome); progress from inside a tool has no kind of its own
    const outcomes = toolEvents.filter((event) => event.status !== 'calling');
    const callings = toolEvents.filter((event) => event.status === 'calling' && event.progress === undefined);
    const kindOf = (events: CoreEventOf<'tool'>[]) => Object.fromEntries(events.map((e) => [e.callId, e.kind]));
    const expected = {
      py: 'python',
      sh: 'bash',
      ed: 'file',
      web: 'browser',
      find: 'search',
      ask: 'generic',
      mcp: 'mcp',
      none: 'generic',
      end: 'generic',
    };
    expect(kindOf(callings)).toEqual(expected);
    expect(kindOf(outcomes)).toEqual(expected);
    expect(outcomes.map((event) => [event.callId, event.status])).toEqual(
      Object.keys(expected).map((callId) => [callId, callId === 'none' ? 'error' : 'done']),
    );

    const dataOf = Object.fromEntries(outcomes.map((event) => [event.callId, event.data]));
    expect(Object.entries(dataOf).flatMap(([callId, data]) => (data ? [callId] : []))).toEqual(['web', 'find']);
    expect(ToolResultDataSchema.parse(dataOf.web)).toEqual({ kind: 'browser', url: site.url('/page/1') });
    expect(ToolResultDataSchema.parse(dataOf.find)).toEqual({
      kind: 'search',
      results: [
        { title: 'DDG result 1 for manus', url: site.url('/page/1'), snippet: 'Snippet & text 1' },
        { title: 'DDG result 2 for manus', url: site.url('/page/2'), snippet: 'Snippet & text 2' },
      ],
    });
    // the model still reads the results as text
    const search = outcomes.find((event) => event.callId === 'find');
    expect(search?.output).toContain(`1. DDG result 1 for manus\n   URL: ${site.url('/page/1')}\n   Snippet & text 1`);
  });
});
