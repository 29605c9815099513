import type { TFunction } from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { appTranslators } from '../support/app-translators.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';
import { describeError } from '../../src/main/flow/run-errors.js';
import { PlannerReplyError, UnknownAgentError } from '../../src/main/flow/flow-errors.js';
import { LlmError } from '../../src/main/llm/errors.js';
import { TokenBudgetExceededError } from '../../src/main/session/token-budget.js';
import { readableProblem } from '../../src/renderer/src/lib/core-messages.js';

let tEn: TFunction;
let tZh: TFunction;
beforeAll(async () => {
  ({ en: tEn, zh: tZh } = await appTranslators());
});

/** The error as a run's error event carries it, read in one language. */
function read(t: TFunction, error: Error) {
  const described = describeError(error);
  return readableProblem(t, described.code, described.message, described.params ?? {}, described.hint);
}

describe('errors a run ends with read in the UI language, from their code and values', () => {
  const cases: [string, Error, { zh: string[]; en: string[] }][] = [
    [
      'a session over its token budget',
      new TokenBudgetExceededError('session', 150_000, 120_000),
      {
        zh: ['已达到 token 预算', '本会话用了 150,000 个 token，预算为 120,000'],
        en: ['this session used 150,000 tokens'],
      },
    ],
    [
      'a run over its token budget',
      new TokenBudgetExceededError('run', 5_000, 4_000),
      { zh: ['本次运行用了 5,000 个 token'], en: ['this run used 5,000 tokens'] },
    ],
    [
      'an agent that does not exist',
      new UnknownAgentError(['wizard'], ['manus', 'browser']),
      { zh: ['没有这个智能体：wizard', '现有的智能体：manus, browser'], en: ['Unknown agent: wizard'] },
    ],
    [
      'a planner that never answered in the plan format',
      new PlannerReplyError('plan', 3, 'not JSON'),
      { zh: ['规划器的回答不符合计划格式', '已尝试 3 次'], en: ['It tried 3 times'] },
    ],
    [
      'a task larger than the model’s context',
      new LlmError('context_length', 'the task and the system prompt take 9000 tokens', { reason: 'task_too_large' }),
      { zh: ['任务内容太长'], en: ['The task is too long for this model'] },
    ],
    [
      'a model that spent its tokens before answering',
      new LlmError('empty_reply', 'model m used all its completion tokens', { reason: 'out_of_tokens' }),
      { zh: ['用完了全部输出 token', '最大 token 数'], en: ['Raise Max tokens'] },
    ],
  ];

  it.each(cases)('%s', (_, error, expected) => {
    const zhText = Object.values(read(tZh, error)).join('\n');
    for (const part of expected.zh) expect(zhText).toContain(part);
    expect(zhText).not.toMatch(/\{\{/);
    const enText = Object.values(read(tEn, error)).join('\n');
    for (const part of expected.en) expect(enText).toContain(part);
    expect(read(tZh, error).coded).toBe(true);
  });

  it('a network reason without its own text reads as the code’s text', () => {
    const reset = new LlmError('network', 'the connection failed mid-reply', { reason: 'reset' });
    expect(read(tZh, reset).title).toBe(zh.coreMessages.errors.network.title);
  });
});
