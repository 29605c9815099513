import { describe, expect, it } from 'vitest';
import type { CoreEvent, CoreEventInput, PlanSnapshot } from '../../src/shared/events.js';
import {
  applyEvents,
  emptySessionView,
  sessionViewFromEvents,
  waitingQuestion,
  withSessionInfo,
  type MessageItem,
  type SessionView,
  type ToolItem,
} from '../../src/renderer/src/state/session-view.js';
import {
  hasOlderEvents,
  prependOlderEvents,
  sessionViewFromWindow,
} from '../../src/renderer/src/state/session-window.js';
import type { SessionInfo } from '../../src/shared/events.js';

const SESSION = 's1';

/** Stamps events the way the store does: per-session seq, increasing ts. */
function stamp(inputs: CoreEventInput[], firstSeq = 1): CoreEvent[] {
  return inputs.map((input, index) => ({ ...input, seq: firstSeq + index, ts: 1_000 + index }) as CoreEvent);
}

const plan = (statuses: PlanSnapshot['steps'][number]['status'][]): PlanSnapshot => ({
  planId: 'p1',
  title: 'Find and chart',
  steps: statuses.map((status, index) => ({ text: `step ${index + 1}`, status, notes: '' })),
  text: 'plan text',
});

describe('session view reduction', () => {
  it('joins streamed chunks into one message and a final full text replaces them', () => {
    const events = stamp([
      { type: 'message', sessionId: SESSION, messageId: 'u1', role: 'user', text: 'hi', delta: false },
      { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'Hel', delta: true },
      { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'lo', delta: true },
    ]);
    const streaming = sessionViewFromEvents(SESSION, events);
    expect(streaming.items).toHaveLength(2);
    expect(streaming.items[1]).toMatchObject({ kind: 'message', text: 'Hello', streaming: true });

    const final = applyEvents(
      streaming,
      stamp(
        [{ type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'Hello!', delta: false }],
        4,
      ),
    );
    expect(final.items[1]).toMatchObject({ text: 'Hello!', streaming: false });
    expect(streaming.items[1]).toMatchObject({ text: 'Hello' });
  });

  it('applies replayed events once: a reload that overlaps live events shows each thing once', () => {
    const events = stamp([
      { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'a', delta: true },
      { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'b', delta: true },
      { type: 'tool', sessionId: SESSION, callId: 'c1', name: 'bash', args: { command: 'ls' }, status: 'calling' },
    ]);
    const once = sessionViewFromEvents(SESSION, events);
    const twice = applyEvents(applyEvents(once, events.slice(1)), events);
    expect(twice).toBe(once);
    expect((twice.items[0] as MessageItem).text).toBe('ab');
    expect(twice.lastSeq).toBe(3);
  });

  it('ignores events of other sessions', () => {
    const view = applyEvents(
      emptySessionView(SESSION),
      stamp([{ type: 'title', sessionId: 'other', title: 'not mine' }]),
    );
    expect(view.title).toBeUndefined();
  });

  it('follows a tool call from calling through progress to done, with duration and figures', () => {
    const image = { mimeType: 'image/png' as const, data: 'iVBORw0KGgo=' };
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'c1',
          name: 'python_execute',
          kind: 'python',
          args: { code: 'print(1)' },
          status: 'calling',
        },
        // progress comes from inside the tool, without the kind: the card keeps the one it has
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'c1',
          name: 'python_execute',
          args: { code: 'print(1)' },
          status: 'calling',
          progress: '1\n',
        },
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'c1',
          name: 'python_execute',
          kind: 'python',
          args: { code: 'print(1)' },
          status: 'done',
          output: '1\n',
          images: [image],
          durationMs: 420,
        },
      ]),
    );
    expect(view.items).toHaveLength(1);
    const tool = view.items[0] as ToolItem;
    expect(tool).toMatchObject({
      toolKind: 'python',
      status: 'done',
      output: '1\n',
      progress: '1\n',
      durationMs: 420,
    });
    expect(tool.images).toEqual([image]);
    expect(view.screenshots).toEqual([]);
  });

  it("keys tool cards on the app's id: a provider reusing call_0 on every step does not overwrite earlier cards", () => {
    const callOf = (toolId: string, command: string, status: 'calling' | 'done', output?: string): CoreEventInput => ({
      type: 'tool',
      sessionId: SESSION,
      callId: 'call_0',
      toolId,
      name: 'bash',
      args: { command },
      status,
      ...(output ? { output } : {}),
    });
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        callOf('t1', 'ls', 'calling'),
        callOf('t1', 'ls', 'done', 'a.txt'),
        callOf('t2', 'pwd', 'calling'),
        callOf('t2', 'pwd', 'done', '/workspace'),
        callOf('t3', 'whoami', 'calling'),
      ]),
    );
    const tools = view.items.filter((item): item is ToolItem => item.kind === 'tool');
    expect(tools.map(({ args, status, output }) => [args, status, output])).toEqual([
      [{ command: 'ls' }, 'done', 'a.txt'],
      [{ command: 'pwd' }, 'done', '/workspace'],
      [{ command: 'whoami' }, 'calling', undefined],
    ]);
    expect(new Set(tools.map((tool) => tool.key)).size).toBe(3);
  });

  it('names the oldest waiting question for the message box, never an approval, a form or an answered one', () => {
    const ask = (askId: string, kind: 'question' | 'approval', status: 'waiting' | 'answered'): CoreEventInput => ({
      type: 'ask',
      sessionId: SESSION,
      askId,
      kind,
      question: `q ${askId}`,
      status,
    });
    const view = sessionViewFromEvents(
      SESSION,
      stamp([ask('a1', 'approval', 'waiting'), ask('q1', 'question', 'waiting'), ask('q2', 'question', 'waiting')]),
    );
    expect(waitingQuestion(view)?.askId).toBe('q1');
    const answered = applyEvents(view, stamp([ask('q1', 'question', 'answered')], 4));
    expect(waitingQuestion(answered)?.askId).toBe('q2');
    expect(waitingQuestion(applyEvents(answered, stamp([ask('q2', 'question', 'answered')], 5)))).toBeUndefined();
    expect(waitingQuestion(undefined)).toBeUndefined();
  });

  it('collects browser screenshots with their url for the scrubber', () => {
    const shot = (data: string) => ({ mimeType: 'image/png' as const, data });
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'b1',
          name: 'browser_use',
          kind: 'browser',
          args: { action: 'go_to_url', url: 'http://127.0.0.1/a' },
          status: 'done',
          images: [shot('A')],
          data: { kind: 'browser', url: 'http://127.0.0.1/a/' },
        },
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'b2',
          name: 'browser_use',
          kind: 'browser',
          args: { action: 'scroll_down' },
          status: 'done',
          output: 'Scrolled on http://127.0.0.1/elsewhere',
          images: [shot('B')],
          data: { kind: 'browser', url: 'http://127.0.0.1/b' },
        },
        // an MCP tool that returns an image is not the browser
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'm1',
          name: 'mcp_pics_browser_shot',
          kind: 'mcp',
          args: {},
          status: 'done',
          images: [shot('M')],
        },
      ]),
    );
    expect(view.screenshots.map((entry) => [entry.url, entry.action, entry.image.data])).toEqual([
      ['http://127.0.0.1/a', 'go_to_url', 'A'],
      ['http://127.0.0.1/b', 'scroll_down', 'B'],
    ]);
  });

  it('tracks the plan: progress, current step, each step result and agent', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        {
          type: 'plan',
          sessionId: SESSION,
          action: 'created',
          plan: plan(['not_started', 'not_started', 'not_started']),
        },
        {
          type: 'step',
          sessionId: SESSION,
          action: 'started',
          planId: 'p1',
          stepIndex: 0,
          description: 'step 1',
          agent: 'manus',
        },
        {
          type: 'step',
          sessionId: SESSION,
          action: 'completed',
          planId: 'p1',
          stepIndex: 0,
          description: 'step 1',
          agent: 'manus',
          result: 'found it',
        },
        {
          type: 'step',
          sessionId: SESSION,
          action: 'started',
          planId: 'p1',
          stepIndex: 1,
          description: 'step 2',
          agent: 'data',
        },
      ]),
    );
    expect(view.plan).toMatchObject({ completedSteps: 1, totalSteps: 3, currentStep: 1 });
    expect(view.plan?.snapshot.steps.map((step) => step.status)).toEqual(['completed', 'in_progress', 'not_started']);
    expect(view.plan?.outcomes[0]).toEqual({ agent: 'manus', result: 'found it' });
    expect(view.plan?.outcomes[1]).toEqual({ agent: 'data' });

    const blocked = applyEvents(
      view,
      stamp(
        [
          {
            type: 'step',
            sessionId: SESSION,
            action: 'failed',
            planId: 'p1',
            stepIndex: 1,
            description: 'step 2',
            result: 'no data',
          },
        ],
        5,
      ),
    );
    expect(blocked.plan?.snapshot.steps[1].status).toBe('blocked');
    expect(blocked.plan?.currentStep).toBeUndefined();
  });

  it('a plan snapshot replaces step statuses and keeps outcomes of the same plan', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        { type: 'plan', sessionId: SESSION, action: 'created', plan: plan(['not_started', 'not_started']) },
        {
          type: 'step',
          sessionId: SESSION,
          action: 'completed',
          planId: 'p1',
          stepIndex: 0,
          description: 'step 1',
          result: 'r',
        },
        { type: 'plan', sessionId: SESSION, action: 'updated', plan: plan(['completed', 'in_progress']) },
      ]),
    );
    expect(view.plan).toMatchObject({ completedSteps: 1, currentStep: 1, finished: false });
    expect(view.plan?.outcomes[0]?.result).toBe('r');
  });

  it('keeps a question waiting until it is answered', () => {
    const asked = sessionViewFromEvents(
      SESSION,
      stamp([
        { type: 'ask', sessionId: SESSION, askId: 'a1', kind: 'question', question: 'Which city?', status: 'waiting' },
      ]),
    );
    expect(asked.waitingAsks).toEqual(['a1']);
    const answered = applyEvents(
      asked,
      stamp(
        [
          {
            type: 'ask',
            sessionId: SESSION,
            askId: 'a1',
            kind: 'question',
            question: 'Which city?',
            status: 'answered',
            answer: 'Paris',
          },
        ],
        2,
      ),
    );
    expect(answered.waitingAsks).toEqual([]);
    expect(answered.items).toHaveLength(1);
    expect(answered.items[0]).toMatchObject({ kind: 'ask', status: 'answered', answer: 'Paris' });
  });

  it('done ends streaming and marks calls left running as stopped', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'partial', delta: true },
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 'c1',
          name: 'bash',
          args: { command: 'sleep 100' },
          status: 'calling',
        },
        { type: 'done', sessionId: SESSION, status: 'cancelled', result: 'Stopped by the user.' },
      ]),
    );
    expect(view.status).toBe('cancelled');
    expect(view.items[0]).toMatchObject({ streaming: false });
    expect(view.items[1]).toMatchObject({ status: 'stopped', error: undefined });
    expect(view.items[2]).toMatchObject({ kind: 'done', status: 'cancelled', repeatsLastMessage: false });
    const finished = sessionViewFromEvents(
      SESSION,
      stamp([
        { type: 'message', sessionId: SESSION, messageId: 'm1', role: 'assistant', text: 'All done. ', delta: false },
        { type: 'done', sessionId: SESSION, status: 'finished', result: 'All done.' },
      ]),
    );
    expect(finished.items[1]).toMatchObject({ kind: 'done', repeatsLastMessage: true });
  });

  it('leaves a successful terminate out of the timeline, shows a failed one', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 't1',
          name: 'terminate',
          args: { status: 'success' },
          status: 'calling',
        },
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 't1',
          name: 'terminate',
          args: { status: 'success' },
          status: 'done',
          output: 'ok',
        },
        {
          type: 'tool',
          sessionId: SESSION,
          callId: 't2',
          name: 'terminate',
          args: {},
          status: 'error',
          error: 'bad status',
        },
      ]),
    );
    expect(view.items.map((item) => item.key)).toEqual(['tool:t2']);
  });

  it('errors keep their code and fix', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        {
          type: 'error',
          sessionId: SESSION,
          code: 'run_failed',
          message: 'No language model is configured.',
          hint: 'Add a provider',
        },
      ]),
    );
    expect(view.items[0]).toMatchObject({ kind: 'error', code: 'run_failed', hint: 'Add a provider' });
  });

  it('reduces a 5,000-event session to its timeline', () => {
    const inputs: CoreEventInput[] = [];
    for (let index = 0; index < 1000; index += 1) {
      inputs.push({
        type: 'message',
        sessionId: SESSION,
        messageId: `m${index}`,
        role: 'assistant',
        text: 'chunk ',
        delta: true,
      });
      inputs.push({
        type: 'message',
        sessionId: SESSION,
        messageId: `m${index}`,
        role: 'assistant',
        text: 'more',
        delta: true,
      });
      inputs.push({
        type: 'tool',
        sessionId: SESSION,
        callId: `c${index}`,
        name: 'bash',
        args: { command: 'ls' },
        status: 'calling',
      });
      inputs.push({
        type: 'tool',
        sessionId: SESSION,
        callId: `c${index}`,
        name: 'bash',
        args: { command: 'ls' },
        status: 'done',
        output: 'a\nb',
      });
      inputs.push({
        type: 'agent_state',
        sessionId: SESSION,
        agent: 'manus',
        state: 'RUNNING',
        phase: 'thinking',
        step: index + 1,
        maxSteps: 5000,
      });
    }
    const view = sessionViewFromEvents(SESSION, stamp(inputs));
    expect(view.items).toHaveLength(2000);
    expect(view.lastSeq).toBe(5000);
    expect((view.items[0] as MessageItem).text).toBe('chunk more');
  });
});

const SESSION_ROW: SessionInfo = {
  id: SESSION,
  title: 'Long one',
  status: 'finished',
  mode: 'agent',
  model: 'fake-model',
  workspace: '/tmp/ws',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 2,
};
const PIXEL = { mimeType: 'image/png' as const, data: 'AAAA' };

/** Two turns of a planned run: streamed replies, tools with progress and screenshots, a question, plan revisions. */
function plannedSession(): CoreEvent[] {
  const inputs: CoreEventInput[] = [
    { type: 'message', sessionId: SESSION, messageId: 'task', role: 'user', text: 'Do it', delta: false },
    { type: 'plan', sessionId: SESSION, action: 'created', plan: plan(['not_started', 'not_started', 'not_started']) },
  ];
  for (let turn = 0; turn < 3; turn += 1) {
    const messageId = `m${turn}`;
    const callId = `c${turn}`;
    const args = { action: 'go_to_url', url: `http://127.0.0.1:9/${turn}` };
    inputs.push(
      {
        type: 'step',
        sessionId: SESSION,
        action: 'started',
        planId: 'p1',
        stepIndex: turn,
        description: 'go',
        agent: 'manus',
      },
      { type: 'message', sessionId: SESSION, messageId, role: 'assistant', text: `Turn ${turn} `, delta: true },
      { type: 'tool', sessionId: SESSION, callId, name: 'browser_use', kind: 'browser', args, status: 'calling' },
      { type: 'message', sessionId: SESSION, messageId, role: 'assistant', text: 'goes on', delta: true },
      {
        type: 'tool',
        sessionId: SESSION,
        callId,
        name: 'browser_use',
        kind: 'browser',
        args,
        status: 'calling',
        progress: 'loading ',
      },
      { type: 'ask', sessionId: SESSION, askId: `a${turn}`, kind: 'question', question: 'Go on?', status: 'waiting' },
      {
        type: 'tool',
        sessionId: SESSION,
        callId,
        name: 'browser_use',
        kind: 'browser',
        args,
        status: 'calling',
        progress: 'done',
        images: [PIXEL],
      },
      {
        type: 'ask',
        sessionId: SESSION,
        askId: `a${turn}`,
        kind: 'question',
        question: '',
        status: 'answered',
        answer: 'yes',
      },
      {
        type: 'tool',
        sessionId: SESSION,
        callId,
        name: 'browser_use',
        kind: 'browser',
        args,
        status: 'done',
        output: 'page',
        images: [PIXEL],
      },
      { type: 'notice', sessionId: SESSION, level: 'info', code: 'n', text: `notice ${turn}` },
      {
        type: 'message',
        sessionId: SESSION,
        messageId,
        role: 'assistant',
        text: `Turn ${turn} is over.`,
        delta: false,
      },
      {
        type: 'step',
        sessionId: SESSION,
        action: 'completed',
        planId: 'p1',
        stepIndex: turn,
        description: 'go',
        result: `r${turn}`,
      },
      {
        type: 'plan',
        sessionId: SESSION,
        action: turn === 2 ? 'completed' : 'updated',
        plan: plan(
          ['completed', 'completed', 'completed'].map((status, index) =>
            index <= turn ? status : 'not_started',
          ) as never,
        ),
      },
    );
  }
  inputs.push(
    { type: 'message', sessionId: SESSION, messageId: 'last', role: 'assistant', text: 'All ', delta: true },
    {
      type: 'tool',
      sessionId: SESSION,
      callId: 'left-open',
      name: 'bash',
      args: { command: 'sleep 9' },
      status: 'calling',
    },
    { type: 'message', sessionId: SESSION, messageId: 'last', role: 'assistant', text: 'done.', delta: true },
    { type: 'done', sessionId: SESSION, status: 'finished', result: 'All done.' },
  );
  return stamp(inputs);
}

/** The outline the store gives: the latest plan event and the step events after it. */
function outlineOf(events: CoreEvent[]) {
  const planAt = events.findLastIndex((event) => event.type === 'plan');
  const planEvents =
    planAt < 0 ? [] : events.slice(planAt).filter((event) => event.type === 'plan' || event.type === 'step');
  return { session: SESSION_ROW, firstSeq: events[0].seq, planEvents };
}

/** What the person sees: every field but the bookkeeping of where the window starts. */
function shown(view: SessionView) {
  const { storedFirstSeq: _stored, waitingAsks, ...rest } = view;
  return { ...rest, waitingAsks: [...waitingAsks].sort() };
}

describe('session view from a window of its last events', () => {
  it('shows a tool call whose calling events are in an older window, and a reply that began there', () => {
    const events = plannedSession();
    const fromDone = events.findIndex(
      (event) => event.type === 'tool' && event.callId === 'c2' && event.status === 'done',
    );
    const view = sessionViewFromWindow(SESSION, events.slice(fromDone), outlineOf(events));
    expect(view.items[0]).toMatchObject({
      kind: 'tool',
      callId: 'c2',
      status: 'done',
      output: 'page',
      toolKind: 'browser',
    });
    expect(view.items.find((item) => item.key === 'message:last')).toMatchObject({
      text: 'All done.',
      streaming: false,
    });
    expect(view.items.at(-1)).toMatchObject({ kind: 'done', repeatsLastMessage: true });
    expect(view.plan).toMatchObject({ completedSteps: 3, totalSteps: 3, finished: true });
    expect(view.plan?.outcomes[2]).toEqual({ result: 'r2' });
    expect(view.title).toBe('Long one');
    expect(hasOlderEvents(view)).toBe(true);
  });

  it('gives the same view as every event applied in order, wherever the windows are cut', () => {
    const events = plannedSession();
    const whole = withSessionInfo(sessionViewFromEvents(SESSION, events), SESSION_ROW);
    for (let cut = 1; cut < events.length; cut += 1) {
      const window = sessionViewFromWindow(SESSION, events.slice(cut), outlineOf(events));
      // older events arrive in two pages, as scrolling up loads them
      const middle = Math.floor(cut / 2);
      const paged = prependOlderEvents(prependOlderEvents(window, events.slice(middle, cut)), events.slice(0, middle));
      expect(shown(paged), `cut before seq ${events[cut].seq}`).toEqual(shown(whole));
      expect(hasOlderEvents(paged)).toBe(false);
    }
  });

  it('adds nothing twice from an overlapping page, and an empty page ends the paging', () => {
    const events = plannedSession();
    const cut = 20;
    const window = sessionViewFromWindow(SESSION, events.slice(cut), outlineOf(events));
    const overlapping = prependOlderEvents(window, events.slice(cut - 5, cut + 5));
    expect(overlapping.items.map((item) => item.key)).toEqual(
      prependOlderEvents(window, events.slice(cut - 5, cut)).items.map((item) => item.key),
    );
    expect(hasOlderEvents(prependOlderEvents(window, []))).toBe(false);
  });
});
