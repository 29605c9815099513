import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CoreEvent, FlowPhase } from '../../src/shared/events.js';
import { en } from '../../src/renderer/src/i18n/en.js';
import { zh } from '../../src/renderer/src/i18n/zh.js';
import { sessionViewFromEvents } from '../../src/renderer/src/state/session-view.js';
import { SessionHeader } from '../../src/renderer/src/components/SessionHeader.js';

const SESSION = 's1';

beforeAll(async () => {
  await i18next
    .use(initReactI18next)
    .init({ resources: { en: { translation: en }, zh: { translation: zh } }, lng: 'en', showSupportNotice: false });
});

function headerAt(phase: FlowPhase, language = 'en'): string {
  const events: CoreEvent[] = [
    {
      type: 'session',
      sessionId: SESSION,
      seq: 1,
      ts: 1,
      action: 'status',
      session: {
        id: SESSION,
        title: 'Research',
        status: 'running',
        mode: 'plan_act',
        model: 'm',
        workspace: '/w',
        usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
        createdAt: 1,
        updatedAt: 1,
      },
    },
    { type: 'phase', sessionId: SESSION, seq: 2, ts: 2, phase },
  ];
  void i18next.changeLanguage(language);
  return renderToStaticMarkup(
    createElement(SessionHeader, {
      view: sessionViewFromEvents(SESSION, events),
      panel: 'none',
      onPanel: () => {},
      onResume: () => {},
    }),
  );
}

describe('the header while a Plan-Act planner works', () => {
  it('says "Planning…" or "Updating the plan…" in the person language, and nothing of the kind while a step executes', () => {
    expect(headerAt('planning')).toContain('data-testid="flow-phase" data-phase="planning">Planning…<');
    expect(headerAt('updating')).toContain('>Updating the plan…<');
    expect(headerAt('updating', 'zh')).toContain('>正在更新计划…<');
    expect(headerAt('executing')).not.toContain('flow-phase');
  });
});
