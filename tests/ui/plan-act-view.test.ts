import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent, CoreEventInput } from '../../src/shared/events.js';
import { sessionViewFromEvents, type MessageItem } from '../../src/renderer/src/state/session-view.js';
import { exportSessionMarkdown } from '../../src/main/store/export.js';
import { openStore } from '../../src/main/store/store.js';
import {
  failedStep,
  goalUnreachableEnding,
  replanFailedEnding,
  replanLimitEnding,
  replannedNotice,
  stepLimitEnding,
  TIMEOUT_ENDING,
  type PlanActEnding,
} from '../../src/main/flow/plan-act-endings.js';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';

const SESSION = 's1';
/** what an executor's answer looked like in sessions stored before Plan-Act showed reports as their result */
const OLD_REPORT = '{"success": true, "result": "Sales rose 12% in March.", "attachments": ["chart.png"]}';

const oldEvents: CoreEventInput[] = [
  { type: 'message', sessionId: SESSION, messageId: 'u1', role: 'user', text: 'Chart the sales', delta: false },
  {
    type: 'message',
    sessionId: SESSION,
    messageId: 'm1',
    agent: 'manus',
    role: 'assistant',
    text: '{"succ',
    delta: true,
  },
  {
    type: 'message',
    sessionId: SESSION,
    messageId: 'm1',
    agent: 'manus',
    role: 'assistant',
    text: OLD_REPORT,
    delta: false,
  },
];

let dataDir = '';
afterEach(() => {
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = '';
});

describe('Plan-Act step reports stored by an older version', () => {
  it('read as their result and files in the session view (after a reload and in review)', () => {
    const stamped = oldEvents.map((event, index) => ({ ...event, seq: index + 1, ts: 1_000 + index }) as CoreEvent);
    const view = sessionViewFromEvents(SESSION, stamped);
    const reply = view.items.find((item): item is MessageItem => item.kind === 'message' && item.role === 'assistant');
    expect([reply?.text, reply?.attachments]).toEqual(['Sales rose 12% in March.', ['chart.png']]);
  });

  it('read as their result in a Markdown export', () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-old-report-'));
    const store = openStore(dataDir);
    try {
      store.createSession({ id: SESSION, title: 'Old', mode: 'plan_act', model: 'm', workspace: join(dataDir, 'ws') });
      for (const event of oldEvents) store.appendEvent({ ...event, ts: Date.now() });
      const markdown = exportSessionMarkdown(store, SESSION);
      expect(markdown).toContain('## Assistant (manus)\n\nSales rose 12% in March.');
      expect(markdown).not.toMatch(/"success"\s*:/);
    } finally {
      store.close();
    }
  });
});

/** i18next's interpolation, as the app configures it (no escaping) */
function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? `{{${name}}}`));
}

const placeholders = (template: string) => [...template.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('Plan-Act endings and notices in the person language', () => {
  const failed = failedStep('b', 'Read the price page', 'The page answered 503.');
  const asNotice = (ending: PlanActEnding) => ({ text: ending.text, params: ending.notice[2] ?? {} });
  const notices: [string, { params: Record<string, string | number>; text: string }][] = [
    ['plan_timeout', asNotice(TIMEOUT_ENDING)],
    ['plan_step_limit', asNotice(stepLimitEnding(30))],
    ['plan_replan_limit', asNotice(replanLimitEnding(failed, 3))],
    ['plan_replan_failed', asNotice(replanFailedEnding(failed, 'the model is offline'))],
    ['plan_goal_unreachable', asNotice(goalUnreachableEnding(failed))],
    ['replanned', replannedNotice(failed, 1, 3, 2)],
  ];

  it.each(notices)('%s reads in English as the core wrote it, and Chinese fills in the same values', (code, notice) => {
    const key = code as keyof typeof en.planAct.notices;
    expect(fill(en.planAct.notices[key], notice.params)).toBe(notice.text);
    expect(placeholders(zh.planAct.notices[key])).toEqual(placeholders(en.planAct.notices[key]));
    expect(fill(zh.planAct.notices[key], notice.params)).not.toMatch(/\{\{/);
  });
});
