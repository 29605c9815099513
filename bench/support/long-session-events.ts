import type { CoreEventInput, Image } from '../../src/shared/events.js';

/** A 1x1 PNG: screenshots and figures cost what their row costs, not what decoding a big image costs. */
const PIXEL: Image = {
  mimeType: 'image/png',
  data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
};

const PARAGRAPH =
  'The **results** below come from the sandbox run. See [the docs](https://example.org/docs) and note the `--flag` option.';
const CODE = '```python\nimport math\n\nfor n in range(10):\n    print(n, math.sqrt(n))\n```';

/**
 * A realistic long session of exactly `total` events: streamed replies with Markdown and code, python, bash,
 * browser and search tool calls with outputs, plan steps and usage updates.
 */
export function longSessionEvents(sessionId: string, total: number): CoreEventInput[] {
  const events: CoreEventInput[] = [];
  const push = (event: CoreEventInput) => {
    if (events.length < total) events.push(event);
  };
  push({
    type: 'message',
    sessionId,
    messageId: 'task',
    role: 'user',
    text: 'Analyse the data set and report.',
    delta: false,
  });
  for (let turn = 0; events.length < total; turn += 1) {
    const messageId = `m${turn}`;
    push({
      type: 'message',
      sessionId,
      messageId,
      role: 'assistant',
      agent: 'manus',
      text: `Step ${turn}: `,
      delta: true,
    });
    push({ type: 'message', sessionId, messageId, role: 'assistant', agent: 'manus', text: PARAGRAPH, delta: true });
    if (turn % 3 === 0)
      push({ type: 'message', sessionId, messageId, role: 'assistant', text: `\n\n${CODE}`, delta: true });
    const callId = `c${turn}`;
    const kind = turn % 4;
    const name = ['python_execute', 'bash', 'browser_use', 'web_search'][kind];
    const args =
      kind === 0
        ? { code: 'import pandas as pd\nprint(pd.__version__)' }
        : kind === 1
          ? { command: `ls -la /workspace/run-${turn}` }
          : kind === 2
            ? { action: 'go_to_url', url: `http://127.0.0.1:9/page/${turn}` }
            : { query: `query ${turn}` };
    push({ type: 'tool', sessionId, callId, name, args, status: 'calling' });
    push({
      type: 'tool',
      sessionId,
      callId,
      name,
      args,
      status: 'done',
      output: `line one of ${name}\nline two\nline three`,
      durationMs: 40 + (turn % 50),
      ...(kind === 0 || kind === 2 ? { images: [PIXEL] } : {}),
    });
    push({
      type: 'usage',
      sessionId,
      model: 'fake-model',
      request: { promptTokens: 100, completionTokens: 20, totalTokens: 120 },
      session: { promptTokens: 100 * turn, completionTokens: 20 * turn, totalTokens: 120 * turn },
    });
  }
  return events;
}
