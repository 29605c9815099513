import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoreEvent, CoreEventOf } from '../../src/shared/events.js';
import { encodeElicitationAnswer } from '../../src/shared/elicitation-form.js';
import { SessionMcp } from '../../src/main/mcp/session-mcp.js';
import { startCoreHarness, type CoreHarness } from '../support/core-harness.js';
import type { Script } from '../support/fake-llm/index.js';
import { waitFor } from '../support/wait-for.js';
import { startAskingHttpServer } from './support/asking-http.js';

const ASKING_SERVER = join(import.meta.dirname, 'fixtures', 'asking-server.ts');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Transport = 'stdio' | 'http';

async function askingServerConfig(transport: Transport) {
  if (transport === 'stdio')
    return { type: 'stdio' as const, command: 'node', args: ['--import', 'tsx', ASKING_SERVER] };
  const http = await startAskingHttpServer();
  cleanups.push(() => http.close());
  return { type: 'http' as const, url: http.url };
}

/**
 * The real core with the asking server connected through SessionMcp, as the app wires it. The model calls
 * `tool` once, then finishes; a request without tools (a sampling request) is answered "Paris".
 */
async function startSession(options: {
  transport: Transport;
  tool: string;
  args?: object;
  policy?: 'auto' | 'risky';
  humanAvailable?: boolean;
  /** the server's per-tool approval choices */
  toolApproval?: Record<string, 'auto' | 'ask'>;
}): Promise<CoreHarness & { logDir: string }> {
  const server = await askingServerConfig(options.transport);
  let turn = 0;
  const script: Script = ({ body }) => {
    if (!body.tools) return { text: 'Paris' };
    turn++;
    if (turn === 1) {
      return { text: 'Using it.', toolCalls: [{ name: `mcp_asking_${options.tool}`, arguments: options.args ?? {} }] };
    }
    return { text: 'Finished.', toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }] };
  };
  const logDir = mkdtempSync(join(tmpdir(), 'manus-mcp-logs-'));
  const sessionMcp = new SessionMcp(logDir);
  const harness = await startCoreHarness(script, {
    settings: {
      mcp: { servers: { asking: { ...server, toolApproval: options.toolApproval ?? {} } } },
      approval: { policy: options.policy ?? 'auto' },
    },
    service: {
      humanAvailable: options.humanAvailable ?? true,
      extraTools: sessionMcp.extraTools,
      onSessionLive: sessionMcp.open,
      onSessionReleased: sessionMcp.close,
      prepareRun: async ({ session }) => {
        await sessionMcp.ready(session);
      },
    },
  });
  cleanups.push(
    () => harness.close(),
    () => rmSync(logDir, { recursive: true, force: true }),
  );
  return { ...harness, logDir };
}

function asksOf(events: CoreEvent[], status: 'waiting' | 'answered' | 'cancelled'): CoreEventOf<'ask'>[] {
  return events.filter((event): event is CoreEventOf<'ask'> => event.type === 'ask' && event.status === status);
}

function toolResultText(harness: CoreHarness): string {
  const last = harness.llm.chatRequests.filter((request) => request.body.tools).at(-1);
  const toolMessage = last?.body.messages.findLast((message: { role: string }) => message.role === 'tool');
  return String(toolMessage?.content ?? '');
}

async function waitingAsk(harness: CoreHarness): Promise<CoreEventOf<'ask'>> {
  await waitFor(() => asksOf(harness.events, 'waiting').length > 0, 30_000, 'a question to the person');
  return asksOf(harness.events, 'waiting')[0];
}

describe.each<Transport>(['stdio', 'http'])('requests from an MCP server to the client (%s)', (transport) => {
  it("turns elicitation/create into a form, and hands the server the person's answer with the defaults they kept", async () => {
    const harness = await startSession({ transport, tool: 'book_table' });
    const { done } = harness.service.start({ task: 'Book a table' });
    const ask = await waitingAsk(harness);
    expect(ask.kind).toBe('elicitation');
    expect(ask.question).toBe('Who is the table for?');
    expect(ask.form?.server).toBe('asking');
    expect(ask.form?.fields).toEqual([
      { name: 'name', type: 'string', title: 'Name', required: true, minLength: 2 },
      { name: 'guests', type: 'integer', title: 'Guests', required: true, default: 2, minimum: 1, maximum: 12 },
      { name: 'budget', type: 'number', title: 'Budget per person', required: false },
      { name: 'vegetarian', type: 'boolean', title: 'Vegetarian', required: false, default: false },
      {
        name: 'time',
        type: 'enum',
        title: 'Time',
        required: false,
        default: '19:00',
        options: [
          { value: '18:00', label: 'Six' },
          { value: '19:00', label: 'Seven' },
        ],
      },
      {
        name: 'seating',
        type: 'enum',
        required: false,
        options: [
          { value: 'inside', label: 'Inside' },
          { value: 'terrace', label: 'Terrace' },
        ],
      },
    ]);
    const content = { name: 'Ada', guests: 2, budget: 40.5, vegetarian: false, time: '19:00', seating: 'terrace' };
    expect(
      harness.service.answer(ask.sessionId, ask.askId, encodeElicitationAnswer({ action: 'accept', content })),
    ).toBe(true);
    expect((await done).status).toBe('finished');
    expect(toolResultText(harness)).toBe(`accept ${JSON.stringify(content)}`);
  });

  it('asks the person before a sampling request reaches the model, then gives the server the answer', async () => {
    const harness = await startSession({
      transport,
      tool: 'ask_model',
      args: { question: 'Capital of France?' },
      policy: 'risky',
    });
    const { done } = harness.service.start({ task: 'Ask the model through the server' });
    const toolApproval = await waitingAsk(harness);
    expect(toolApproval.tool?.name).toBe('mcp_asking_ask_model');
    harness.service.answer(toolApproval.sessionId, toolApproval.askId, 'y');
    await waitFor(() => asksOf(harness.events, 'waiting').length > 1, 30_000, 'the sampling approval');
    const approval = asksOf(harness.events, 'waiting')[1];
    expect(approval.kind).toBe('approval');
    expect(approval.tool?.name).toBe('sampling:asking');
    expect(approval.tool?.args).toEqual({
      server: 'asking',
      systemPrompt: 'Answer in one word.',
      messages: [{ role: 'user', content: 'Capital of France?' }],
      maxTokens: 50,
    });
    // nothing went to the model on the server's behalf before the person said yes
    expect(harness.llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(0);
    harness.service.answer(approval.sessionId, approval.askId, 'y');
    expect((await done).status).toBe('finished');
    const sampled = harness.llm.chatRequests.filter((request) => !request.body.tools);
    expect(sampled).toHaveLength(1);
    expect(sampled[0].body.messages).toEqual([
      { role: 'system', content: 'Answer in one word.' },
      { role: 'user', content: 'Capital of France?' },
    ]);
    expect(sampled[0].body.max_tokens ?? sampled[0].body.max_completion_tokens).toBe(50);
    expect(toolResultText(harness)).toBe('the model (test-model) said: Paris');
    const shown = harness.events.find((event) => event.type === 'notice' && event.code === 'mcp_sampling_answer');
    expect(shown && 'text' in shown ? shown.text : '').toBe('The model answered MCP server "asking": Paris');
  });

  it('shows progress notifications and log messages on the running tool card and keeps the log in the server log', async () => {
    const harness = await startSession({ transport, tool: 'count_steps' });
    const { done } = harness.service.start({ task: 'Count' });
    expect((await done).status).toBe('finished');
    const progress = harness.events
      .filter((event): event is CoreEventOf<'tool'> => event.type === 'tool' && event.name === 'mcp_asking_count_steps')
      .map((event) => event.progress ?? '')
      .join('');
    for (const step of [1, 2, 3]) {
      expect(progress).toContain(`${step}/3 step ${step}\n`);
      expect(progress).toContain(`[info] counter: reached step ${step}\n`);
    }
    // the client asked for info and above: the server's debug lines were not sent
    expect(progress).not.toContain('debug detail');
    expect(toolResultText(harness)).toBe('counted to 3');
    const logPath = join(harness.logDir, 'mcp-asking.log');
    await waitFor(() => existsSync(logPath) && readFileSync(logPath, 'utf8').includes('reached step 3'), 5_000, 'log');
    expect(readFileSync(logPath, 'utf8')).toMatch(/\[info\] counter: reached step 1/);
  });
});

describe('what the person (or nobody) answers a server', () => {
  it.each(['decline', 'cancel'] as const)('hands the server a %s', async (action) => {
    const harness = await startSession({ transport: 'stdio', tool: 'book_table' });
    const { done } = harness.service.start({ task: 'Book a table' });
    const ask = await waitingAsk(harness);
    harness.service.answer(ask.sessionId, ask.askId, encodeElicitationAnswer({ action }));
    expect((await done).status).toBe('finished');
    expect(toolResultText(harness)).toBe(`${action} {}`);
  });

  it('checks an accepted answer against the form: one that does not fit reaches the server as a cancel, with a note', async () => {
    const harness = await startSession({ transport: 'stdio', tool: 'book_table' });
    const { done } = harness.service.start({ task: 'Book a table' });
    const ask = await waitingAsk(harness);
    const content = { name: 'Ada', guests: 40, seating: 'roof' };
    harness.service.answer(ask.sessionId, ask.askId, encodeElicitationAnswer({ action: 'accept', content }));
    expect((await done).status).toBe('finished');
    expect(toolResultText(harness)).toBe('cancel {}');
    const note = harness.events.find((event) => event.type === 'notice' && event.code === 'mcp_elicitation_invalid');
    expect(note && 'text' in note ? note.text : '').toContain('Guests: at most 12; seating: one of inside, terrace');
  });

  it('declines a form when nobody can answer, and says so in the conversation', async () => {
    const harness = await startSession({ transport: 'stdio', tool: 'book_table', humanAvailable: false });
    const { done } = harness.service.start({ task: 'Book a table' });
    expect((await done).status).toBe('finished');
    expect(toolResultText(harness)).toBe('decline {}');
    expect(asksOf(harness.events, 'waiting')).toHaveLength(0);
    const note = harness.events.find((event) => event.type === 'notice' && event.code === 'mcp_elicitation_declined');
    expect(note && 'text' in note ? note.text : '').toBe(
      'MCP server "asking" asked for input ("Who is the table for?"); declined because nobody can answer in this run.',
    );
  });

  it('withdraws the form when the run is cancelled while it waits', async () => {
    const harness = await startSession({ transport: 'stdio', tool: 'book_table' });
    const { sessionId, done } = harness.service.start({ task: 'Book a table' });
    const ask = await waitingAsk(harness);
    await harness.service.cancel(sessionId);
    expect((await done).status).toBe('cancelled');
    await waitFor(
      () => asksOf(harness.events, 'cancelled').some((event) => event.askId === ask.askId),
      10_000,
      'cancel',
    );
    expect(harness.service.answer(sessionId, ask.askId, encodeElicitationAnswer({ action: 'decline' }))).toBe(false);
  });

  it('sends nothing to the model when the person denies a sampling request; the server is told it was declined', async () => {
    const harness = await startSession({
      transport: 'stdio',
      tool: 'ask_model',
      args: { question: 'Capital of France?' },
      policy: 'risky',
    });
    const { done } = harness.service.start({ task: 'Ask the model through the server' });
    const toolApproval = await waitingAsk(harness);
    harness.service.answer(toolApproval.sessionId, toolApproval.askId, 'y');
    await waitFor(() => asksOf(harness.events, 'waiting').length > 1, 30_000, 'the sampling approval');
    const approval = asksOf(harness.events, 'waiting')[1];
    harness.service.answer(approval.sessionId, approval.askId, 'n');
    expect((await done).status).toBe('finished');
    expect(harness.llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(0);
    expect(toolResultText(harness)).toBe(
      'Error: sampling refused: MCP error -1: The sampling request was declined: the person denied it',
    );
  });

  it('refuses sampling that needs approval when nobody can give it', async () => {
    const harness = await startSession({
      transport: 'stdio',
      tool: 'ask_model',
      args: { question: 'Capital of France?' },
      policy: 'risky',
      // the tool may run unasked; its sampling request is still held to the policy
      toolApproval: { ask_model: 'auto' },
      humanAvailable: false,
    });
    await harness.service.start({ task: 'Ask the model through the server' }).done;
    expect(harness.llm.chatRequests.filter((request) => !request.body.tools)).toHaveLength(0);
    expect(toolResultText(harness)).toBe(
      'Error: sampling refused: MCP error -1: The sampling request was declined: it needs approval and nobody can give it here (Nobody can answer questions in this session (no terminal, no window). Run it interactively or answer in the app.)',
    );
    const note = harness.events.find((event) => event.type === 'notice' && event.code === 'mcp_sampling_declined');
    expect(note && 'text' in note ? note.text : '').toContain(
      'MCP server "asking" asked the model a question; not sent',
    );
  });
});
