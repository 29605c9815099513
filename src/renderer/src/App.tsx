import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionMode } from '../../shared/events.js';
import { useAppState, type AppStore } from './state/app-store.js';
import { Sidebar } from './components/Sidebar.js';
import { SessionHeader, type PanelChoice } from './components/SessionHeader.js';
import { MessageList } from './components/MessageList.js';
import { Composer } from './components/Composer.js';
import { PlanPanel } from './components/PlanPanel.js';
import { BrowserPanel } from './components/BrowserPanel.js';
import { ProblemBanner } from './components/ProblemBanner.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { Welcome } from './components/Welcome.js';
import type { SessionView } from './state/session-view.js';

function panelFor(choice: 'auto' | PanelChoice, view: SessionView | undefined): PanelChoice {
  if (choice !== 'auto') return choice;
  if (view?.plan) return 'plan';
  if (view?.screenshots.length) return 'browser';
  return 'none';
}

export function App({ store }: { store: AppStore }) {
  const { t } = useTranslation();
  const state = useAppState(store, (current) => current);
  const [draft, setDraft] = useState('');
  const view = state.activeId ? state.views[state.activeId] : undefined;
  const running = view?.status === 'running';
  const panel = panelFor(state.sidePanel, view);

  useEffect(() => store.start(), [store]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && store.getState().activeId) {
        const active = store.getState();
        if (active.views[active.activeId!]?.status === 'running') {
          event.preventDefault();
          void store.stop();
        }
      }
      if ((event.ctrlKey || event.metaKey) && event.key === '.') void store.stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);

  const send = useCallback(
    (task: string, mode: SessionMode, model: string | undefined) => store.send({ task, mode, model }),
    [store],
  );
  const answer = useCallback((askId: string, reply: string) => store.answer(askId, reply), [store]);

  const noModel = state.appInfo && state.appInfo.models.length === 0;

  return (
    <div className={`app-shell ${panel !== 'none' ? 'with-panel' : ''}`}>
      <Sidebar
        sessions={state.sessions}
        activeId={state.activeId}
        onOpen={(id) => void store.openSession(id)}
        onNew={() => store.newSession()}
      />
      <main className="main-pane">
        <div className="banners">
          {state.connection === 'reconnecting' ? (
            <ProblemBanner code="offline" message={t('problems.offline.title')} hint={t('problems.offline.fix')} />
          ) : null}
          {state.connection === 'unauthorized' ? (
            <ProblemBanner
              code="unauthorized"
              message={t('problems.unauthorized.title')}
              hint={t('problems.unauthorized.fix')}
            />
          ) : null}
          {noModel ? (
            <ProblemBanner code="no_llm" message={t('problems.noModel.title')} hint={t('problems.noModel.fix')} />
          ) : null}
          {state.failure ? (
            <ProblemBanner
              code={state.failure.code}
              message={state.failure.message}
              hint={state.failure.hint}
              onDismiss={() => store.dismissFailure()}
            />
          ) : null}
        </div>
        <ErrorBoundary resetKey={state.activeId}>
          {view ? (
            <>
              <SessionHeader
                view={view}
                panel={panel}
                onPanel={(choice) => store.showPanel(choice)}
                onResume={() => void store.resume()}
              />
              {view.items.length > 0 ? (
                <MessageList sessionId={view.sessionId} items={view.items} live={running} onAnswer={answer} />
              ) : (
                <div className="timeline-empty">{running ? t('session.emptyRun') : t('app.loading')}</div>
              )}
            </>
          ) : state.loadingId ? (
            <div className="timeline-empty">{t('app.loading')}</div>
          ) : (
            <Welcome
              onPick={(task) => {
                setDraft(task);
                store.runCommand('focusComposer');
              }}
            />
          )}
        </ErrorBoundary>
        <Composer
          text={draft}
          onTextChange={setDraft}
          running={running}
          followUp={Boolean(view)}
          models={state.appInfo?.models ?? []}
          defaultModel={state.appInfo?.defaultModel}
          initialMode={view?.session?.mode}
          focusSignal={state.focusRequest?.at}
          onSend={send}
          onStop={() => void store.stop()}
        />
      </main>
      {panel !== 'none' && view ? (
        <aside className="side-panel" aria-label={panel === 'plan' ? t('plan.title') : t('browserPanel.title')}>
          <ErrorBoundary resetKey={`${state.activeId}:${panel}`}>
            {panel === 'plan' ? <PlanPanel plan={view.plan} /> : <BrowserPanel screenshots={view.screenshots} />}
          </ErrorBoundary>
        </aside>
      ) : null}
    </div>
  );
}
