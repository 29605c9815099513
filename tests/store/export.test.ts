import { describe, expect, it } from 'vitest';
import { CoreEventSchema } from '../../src/shared/events.js';
import { exportSessionJson, exportSessionMarkdown, JSON_EXPORT_FORMAT } from '../../src/main/store/export.js';
import { SessionNotFoundError } from '../../src/main/store/store-errors.js';
import type { Store } from '../../src/main/store/store.js';
import { messageEvent, newSession, stamped, tempStore } from './store-fixtures.js';

const OPENAI_KEY = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234';
const CONFIGURED_SECRET = 'hunter2-very-private';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

function recordRun(store: Store): string {
  const session = newSession(store, 'Chart the weather', { workspace: '/data/workspaces/w1' });
  const sessionId = session.id;
  store.updateSession(sessionId, {
    status: 'finished',
    usage: { promptTokens: 120, completionTokens: 30, totalTokens: 150, cost: 0.0123 },
  });
  const plan = {
    planId: 'p1',
    title: 'Weather chart',
    steps: [{ text: 'Fetch data', status: 'completed' as const, notes: '' }],
    text: 'Weather chart\n[✓] Fetch data',
  };
  const events = [
    messageEvent(sessionId, `Draw a chart; my key is ${OPENAI_KEY}`, { role: 'user', messageId: 'u1' }),
    messageEvent(sessionId, 'You are Manus (system prompt)', { role: 'system', messageId: 's1' }),
    stamped({ type: 'plan', sessionId, action: 'created', plan }),
    messageEvent(sessionId, 'I will ', { delta: true, messageId: 'a1' }),
    messageEvent(sessionId, 'run python.', { delta: true, messageId: 'a1' }),
    messageEvent(sessionId, 'I will run python.', { messageId: 'a1' }),
    stamped({
      type: 'tool',
      sessionId,
      callId: 'c1',
      name: 'python_execute',
      args: { code: 'print("```")' },
      status: 'calling',
    }),
    stamped({
      type: 'tool',
      sessionId,
      callId: 'c1',
      name: 'python_execute',
      args: { code: 'print("```")' },
      status: 'calling',
      progress: 'partial',
    }),
    stamped({
      type: 'tool',
      sessionId,
      callId: 'c1',
      name: 'python_execute',
      args: { code: 'print("```")' },
      status: 'done',
      output: '```',
      durationMs: 42,
      images: [{ mimeType: 'image/png', data: PNG, path: 'charts/weather.png' }],
    }),
    stamped({
      type: 'tool',
      sessionId,
      callId: 'c2',
      name: 'bash',
      args: { command: `curl -H "Authorization: Bearer ${CONFIGURED_SECRET}"` },
      status: 'error',
      error: 'exit 7',
    }),
    stamped({
      type: 'step',
      sessionId,
      action: 'completed',
      planId: 'p1',
      stepIndex: 0,
      description: 'Fetch data',
      result: 'got it',
    }),
    stamped({ type: 'error', sessionId, code: 'llm_rate_limited', message: 'slow down', hint: 'wait a minute' }),
    messageEvent(sessionId, 'Partial answer that never', { delta: true, messageId: 'a2' }),
    stamped({ type: 'done', sessionId, status: 'finished', result: 'Chart saved to charts/weather.png' }),
  ];
  for (const event of events) store.appendEvent(event);
  return sessionId;
}

describe('exportSessionMarkdown', () => {
  it('writes title, metadata, conversation, tool calls, plan, errors and result, in order', () => {
    const { store } = tempStore();
    const sessionId = recordRun(store);
    const markdown = exportSessionMarkdown(store, sessionId, { secrets: [CONFIGURED_SECRET] });
    const order = [
      '# Chart the weather',
      `- Session: \`${sessionId}\``,
      '- Status: finished',
      '- Tokens: 120 prompt + 30 completion = 150, estimated cost $0.0123',
      '## User',
      '### Plan created: Weather chart',
      '[✓] Fetch data',
      '## Assistant',
      'I will run python.',
      '### Tool `python_execute` (done, 42 ms)',
      '![image 1](charts/weather.png)',
      '### Tool `bash` (error)',
      'exit 7',
      '### Step 1 completed: Fetch data',
      '> **Error** `llm_rate_limited`: slow down',
      '> Hint: wait a minute',
      'Partial answer that never',
      '_(reply cut off before it was complete)_',
      '## Result (finished)',
      'Chart saved to charts/weather.png',
    ];
    let position = -1;
    for (const piece of order) {
      const found = markdown.indexOf(piece, position + 1);
      expect(found, `"${piece}" after position ${position}`).toBeGreaterThan(position);
      position = found;
    }
    expect(markdown.match(/### Tool `python_execute`/g)).toHaveLength(1);
    expect(markdown).not.toContain('You are Manus');
    expect(markdown).not.toContain(PNG);
    expect(markdown).not.toContain('I will \n');
  });

  it('fences outputs so backticks inside cannot break out', () => {
    const { store } = tempStore();
    const markdown = exportSessionMarkdown(store, recordRun(store));
    expect(markdown).toContain('````text\n```\n````');
    expect(markdown).toContain('````json\n{\n  "code": "print(\\"```\\")"\n}\n````');
  });

  it('contains no secrets: neither credential-shaped strings nor the configured ones', () => {
    const { store } = tempStore();
    const markdown = exportSessionMarkdown(store, recordRun(store), { secrets: [CONFIGURED_SECRET] });
    expect(markdown).not.toContain(OPENAI_KEY);
    expect(markdown).not.toContain(CONFIGURED_SECRET);
    expect(markdown).toContain('my key is [redacted]');
  });

  it('writes each call once with its own result when the provider reused one call id for all of them', () => {
    const { store } = tempStore();
    const sessionId = newSession(store, 'Reused ids').id;
    const calls = [
      ['t1', 'ls', 'a.txt'],
      ['t2', 'pwd', '/workspace'],
    ];
    for (const [toolId, command, output] of calls) {
      const call = { type: 'tool', sessionId, callId: 'call_0', toolId, name: 'bash', args: { command } } as const;
      store.appendEvent(stamped({ ...call, status: 'calling' }));
      store.appendEvent(stamped({ ...call, status: 'done', output }));
    }
    const markdown = exportSessionMarkdown(store, sessionId);
    expect(markdown.match(/^### Tool/gm)?.length ?? 0).toBe(2);
    expect(markdown.indexOf('a.txt')).toBeGreaterThan(markdown.indexOf('"ls"'));
    expect(markdown.indexOf('"pwd"')).toBeGreaterThan(markdown.indexOf('a.txt'));
    expect(markdown.indexOf('/workspace')).toBeGreaterThan(markdown.indexOf('"pwd"'));
  });

  it('lists a call whose run ended while it ran as stopped, and one of a running session as calling', () => {
    const { store } = tempStore();
    const sessionId = newSession(store, 'Stopped').id;
    store.updateSession(sessionId, { status: 'running' });
    const call = {
      type: 'tool',
      sessionId,
      callId: 'c1',
      toolId: 't1',
      name: 'bash',
      args: { command: 'sleep 99' },
    } as const;
    store.appendEvent(stamped({ ...call, status: 'calling' }));
    expect(exportSessionMarkdown(store, sessionId)).toContain('### Tool `bash` (calling)');
    store.appendEvent(stamped({ type: 'done', sessionId, status: 'cancelled', result: 'Stopped.' }));
    store.updateSession(sessionId, { status: 'cancelled' });
    const markdown = exportSessionMarkdown(store, sessionId);
    expect(markdown).toContain('### Tool `bash` (stopped)');
    expect(markdown).not.toContain('(calling)');
  });

  it("lists a user message's attached files under its text, and the images a final answer gained", () => {
    const { store } = tempStore();
    const sessionId = newSession(store, 'Files').id;
    store.appendEvent(
      stamped({
        type: 'message',
        sessionId,
        messageId: 'u1',
        role: 'user',
        text: 'Compare them',
        delta: false,
        attachments: ['uploads/a.csv', 'uploads/b.csv'],
      }),
    );
    const answer = {
      type: 'message',
      sessionId,
      messageId: 'a1',
      role: 'assistant',
      text: 'Charted.',
      delta: false,
    } as const;
    store.appendEvent(stamped(answer));
    store.appendEvent(stamped({ ...answer, images: [{ mimeType: 'image/png', data: PNG, path: 'chart.png' }] }));
    const markdown = exportSessionMarkdown(store, sessionId);
    expect(markdown).toContain('Compare them\n\nAttached: `uploads/a.csv`, `uploads/b.csv`');
    expect(markdown.match(/Charted\./g)).toHaveLength(1);
    expect(markdown).toContain('chart.png');
  });

  it('refuses an unknown session', () => {
    const { store } = tempStore();
    expect(() => exportSessionMarkdown(store, 'nope')).toThrow(SessionNotFoundError);
  });
});

describe('exportSessionJson', () => {
  it('holds the session and every event, valid against the event schema, without secrets', () => {
    const { store } = tempStore();
    const sessionId = recordRun(store);
    const text = exportSessionJson(store, sessionId, { secrets: [CONFIGURED_SECRET] });
    expect(text).not.toContain(OPENAI_KEY);
    expect(text).not.toContain(CONFIGURED_SECRET);
    const exported = JSON.parse(text) as { format: string; session: { id: string }; events: unknown[] };
    expect(exported.format).toBe(JSON_EXPORT_FORMAT);
    expect(exported.session).toEqual(store.getSession(sessionId));
    expect(exported.events).toHaveLength(store.listEvents(sessionId).length);
    const seqs = exported.events.map((event) => CoreEventSchema.parse(event).seq);
    expect(seqs).toEqual(seqs.map((_, index) => index + 1));
  });
});
