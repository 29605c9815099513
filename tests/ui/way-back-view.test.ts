import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { appTranslators } from '../support/app-translators.js';
import type { CoreEvent, CoreEventInput, SessionInfo } from '../../src/shared/events.js';
import { sessionViewFromEvents } from '../../src/renderer/src/state/session-view.js';
import { withTurnEnd } from '../../src/renderer/src/state/turn-end.js';
import { readableNotice, readableProblem } from '../../src/renderer/src/lib/core-messages.js';

const SESSION = 's1';

function stamp(inputs: CoreEventInput[]): CoreEvent[] {
  return inputs.map((input, index) => ({ ...input, seq: index + 1, ts: 1_000 + index }) as CoreEvent);
}

const info = (status: SessionInfo['status']): SessionInfo => ({
  id: SESSION,
  title: 'Task',
  status,
  mode: 'agent',
  model: 'm',
  workspace: '/w',
  usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
  createdAt: 1,
  updatedAt: 1,
});

const user = {
  type: 'message',
  sessionId: SESSION,
  messageId: 'u1',
  role: 'user',
  text: 'Do it',
  delta: false,
} as const;
const retrying = (attempt: number): CoreEventInput => ({
  type: 'notice',
  sessionId: SESSION,
  level: 'warning',
  code: 'retrying',
  text: 'server error (HTTP 503); retrying',
  params: { reason: 'server_error', retryAt: 5_000, attempt, maxAttempts: 3 },
});
const failedWith = (message: string): CoreEventInput[] => [
  { type: 'error', sessionId: SESSION, code: 'server_error', message, params: { status: 503, attempts: 3 } },
  { type: 'session', sessionId: SESSION, action: 'status', session: info('failed') },
  { type: 'done', sessionId: SESSION, status: 'failed', result: message },
];

let tEn: TFunction;
let tZh: TFunction;
beforeAll(async () => {
  ({ en: tEn, zh: tZh } = await appTranslators());
});

describe('the end of a turn that did not finish', () => {
  it('a failed turn shows its error once: one retry notice at a time, none left after the error, no copy in the end card', () => {
    const message = 'LLM request failed after 3 attempts: server error (HTTP 503)';
    const view = sessionViewFromEvents(SESSION, stamp([user, retrying(2), retrying(3), ...failedWith(message)]));
    expect(view.items.map((item) => item.kind)).toEqual(['message', 'error', 'done']);
    const done = view.items.at(-1)!;
    expect(done.kind === 'done' && done.repeatsLastMessage).toBe(true);
    // a model failure has nothing to continue: Retry only
    expect(withTurnEnd(view).end).toEqual({ key: done.key, status: 'failed', canResume: false });
  });

  it('a run whose process died has no done event: its end is added, with Resume, and nothing is left spinning', () => {
    const view = sessionViewFromEvents(
      SESSION,
      stamp([
        { type: 'session', sessionId: SESSION, action: 'created', session: info('running') },
        user,
        { type: 'message', sessionId: SESSION, messageId: 'a1', role: 'assistant', text: 'Work', delta: true },
        { type: 'tool', sessionId: SESSION, callId: 'c1', name: 'bash', args: {}, status: 'calling' },
        { type: 'session', sessionId: SESSION, action: 'status', session: info('interrupted') },
      ]),
    );
    const { items, end } = withTurnEnd(view);
    expect(end).toMatchObject({ status: 'interrupted', canResume: true });
    expect(items.at(-1)).toMatchObject({ kind: 'done', key: end!.key, status: 'interrupted' });
    expect(
      items.some(
        (item) => (item.kind === 'message' && item.streaming) || (item.kind === 'tool' && item.status === 'calling'),
      ),
    ).toBe(false);
  });

  it('a stopped run can be resumed; a finished one has no way back to offer', () => {
    const stopped = sessionViewFromEvents(
      SESSION,
      stamp([
        user,
        { type: 'session', sessionId: SESSION, action: 'status', session: info('cancelled') },
        { type: 'done', sessionId: SESSION, status: 'cancelled', result: 'Cancelled by the user.' },
      ]),
    );
    expect(withTurnEnd(stopped).end).toMatchObject({ status: 'cancelled', canResume: true });
    // a notice after the end card leaves the way back on that card
    const noticed = sessionViewFromEvents(SESSION, [
      ...stamp([
        user,
        { type: 'session', sessionId: SESSION, action: 'status', session: info('cancelled') },
        { type: 'done', sessionId: SESSION, status: 'cancelled', result: 'Cancelled by the user.' },
        { type: 'notice', sessionId: SESSION, level: 'info', code: 'sandbox_parked', text: 'Parked.' },
      ]),
    ]);
    const { items, end } = withTurnEnd(noticed);
    expect(items).toBe(noticed.items);
    expect(items.find((item) => item.kind === 'done')!.key).toBe(end!.key);
    const finished = sessionViewFromEvents(
      SESSION,
      stamp([user, { type: 'done', sessionId: SESSION, status: 'finished', result: 'ok' }]),
    );
    expect(withTurnEnd(finished).end).toBeUndefined();
  });
});

describe('core messages in the UI language', () => {
  it('says what a refused key, a refused connection and an unknown name mean, in English and 中文', () => {
    const key = readableProblem(tEn, 'unauthorized', 'API key refused (HTTP 401) for model m', { status: 401 });
    expect(key).toMatchObject({ title: 'The provider rejected the API key', opensProviderSettings: true, coded: true });
    expect(readableProblem(tZh, 'unauthorized', '', {}).title).toBe('服务商拒绝了 API 密钥');
    expect(readableProblem(tEn, 'network', '', { reason: 'refused' }).title).toBe(
      'The model provider refused the connection',
    );
    expect(readableProblem(tEn, 'network', '', { reason: 'dns' }).title).toBe(
      'The model provider’s address could not be found',
    );
    expect(readableProblem(tZh, 'network', '', { reason: 'dns' }).title).toBe('找不到模型服务商的地址');
    expect(readableProblem(tEn, 'rate_limited', '', { retryAfterSeconds: 90 }).fix).toContain('wait 90 s');
    // a key from the environment is fixed there, not in a provider's form
    expect(readableProblem(tEn, 'unauthorized', '', { configuredBy: 'environment' }).fix).toContain(
      'MANUS_LLM_API_KEY',
    );
  });

  it('keeps the core’s words for a code it has no text for', () => {
    const unknown = readableProblem(tEn, 'flow_exploded', 'The flow exploded.', {}, 'Try again.');
    expect(unknown).toMatchObject({ title: 'Something went wrong', fix: 'Try again.', coded: false });
  });

  it('translates notices from their code and parameters; an old notice without them keeps its text', () => {
    expect(readableNotice(tZh, 'resumed', 'Resuming where the session stopped.')).toBe('从会话停止的地方继续。');
    expect(readableNotice(tEn, 'image_dropped', 'old text', { count: 2, model: 'm' })).toBe(
      '2 images left out: m does not take images.',
    );
    expect(readableNotice(tZh, 'image_dropped', '1 image(s) left out: model m does not take images')).toBe(
      '1 image(s) left out: model m does not take images',
    );
    expect(readableNotice(tZh, 'some_new_code', 'Something new.')).toBe('Something new.');
    // where a resumed flow goes on from, and its end, each in the UI's language
    expect(readableNotice(tZh, 'flow_finishing', 'Finishing the plan.')).toBe('正在收尾这个计划。');
    expect(readableNotice(tZh, 'flow_resumed', 'Continuing', { step: 2, description: '画图' })).toBe(
      '从步骤 2 继续：画图',
    );
  });
});
