import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CoreEvent, CoreEventInput } from '../../src/shared/events.js';
import { sessionViewFromEvents, type MessageItem } from '../../src/renderer/src/state/session-view.js';
import { exportSessionMarkdown } from '../../src/main/store/export.js';
import { openStore } from '../../src/main/store/store.js';

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
