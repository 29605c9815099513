import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionMode } from '../../shared/events.js';
import { useAppState, type AppStore } from './state/app-store.js';
import { SessionSidebar } from './features/sessions/SessionSidebar.js';
import { ReviewView } from './features/sessions/ReviewView.js';
import { SettingsScreen } from './features/settings/SettingsScreen.js';
import type { SettingsTab } from './features/settings/settings-types.js';
import { WorkspacePanel } from './features/workspace/WorkspacePanel.js';
import { readAttachment, type Attachment } from './features/workspace/file-reading.js';
import { FirstRun } from './features/onboarding/FirstRun.js';
import { useShortcut } from './shortcuts/use-shortcut.js';
import { SessionHeader, type PanelChoice } from './components/SessionHeader.js';
import { MessageList } from './components/MessageList.js';
import { Composer } from './components/Composer.js';
import { PlanPanel } from './components/PlanPanel.js';
import { BrowserPanel } from './components/BrowserPanel.js';
import { ProblemBanner } from './components/ProblemBanner.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { Welcome } from './components/Welcome.js';
import type { SessionView } from './state/session-view.js';
import './shell/shell.css';

function panelFor(choice: 'auto' | PanelChoice, view: SessionView | undefined): PanelChoice {
  if (choice !== 'auto') return choice;
  if (view?.plan) return 'plan';
  if (view?.screenshots.length) return 'browser';
  return 'none';
}

export function App({ store }: { store: AppStore }) {
  const { t, i18n } = useTranslation();
  const state = useAppState(store, (current) => current);
  const [draft, setDraft] = useState('');
  const [settingsTab, setSettingsTab] = useState<SettingsTab>();
  const [addingProvider, setAddingProvider] = useState(false);
  const [reviewing, setReviewing] = useState<string>();
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const [searchSignal, setSearchSignal] = useState<number>();
  const view = state.activeId ? state.views[state.activeId] : undefined;
  const running = view?.status === 'running';
  const panel = panelFor(state.sidePanel, view);
  const inReview = Boolean(view && reviewing === view.sessionId && !running);

  useEffect(() => store.start(), [store]);

  // the menu's Settings, Search and New session commands
  useEffect(
    () =>
      store.client.onCommand((command) => {
        if (command === 'openSettings') setSettingsTab((tab) => tab ?? 'providers');
        if (command === 'search') setSearchSignal(Date.now());
        if (command === 'newSession') setSettingsTab(undefined);
      }),
    [store],
  );

  useShortcut(
    'newSession',
    useCallback(() => {
      setSettingsTab(undefined);
      store.newSession();
    }, [store]),
  );
  useShortcut(
    'search',
    useCallback(() => {
      setSettingsTab(undefined);
      setSearchSignal(Date.now());
    }, []),
  );
  useShortcut(
    'settings',
    useCallback(() => setSettingsTab((tab) => (tab ? undefined : 'providers')), []),
  );
  // Esc stops a running session (and is left alone otherwise); Ctrl/⌘+. always asks the open session to stop
  useShortcut(
    'stop',
    useCallback(
      (event) => {
        const { activeId, views } = store.getState();
        if (event.key === 'Escape' && !(activeId && views[activeId]?.status === 'running')) return false;
        void store.stop();
      },
      [store],
    ),
  );

  // the desktop app's menu follows the language the UI shows
  useEffect(() => {
    store.client.call('setUiLanguage', { language: i18n.language === 'zh' ? 'zh' : 'en' }).catch(() => undefined);
  }, [store, i18n.language]);

  const attach = useCallback(
    async (files: File[]) => {
      try {
        const read = await Promise.all(files.map(readAttachment));
        setAttachments((current) => [...current, ...read]);
      } catch (error) {
        store.fail({ code: 'too_large', message: (error as Error).message, hint: t('attach.limit') });
      }
    },
    [store, t],
  );

  const send = useCallback(
    async (task: string, mode: SessionMode, model: string | undefined) => {
      const sent = await store.send({
        task,
        mode,
        model,
        attachments: attachments.map(({ name, data }) => ({ name, data })),
      });
      if (sent) setAttachments([]);
      return sent;
    },
    [store, attachments],
  );
  const answer = useCallback((askId: string, reply: string) => store.answer(askId, reply), [store]);

  const noModel = state.appInfo && state.appInfo.models.length === 0;

  return (
    <div className={`app-shell ${panel !== 'none' && view && !settingsTab ? 'with-panel' : ''}`}>
      <SessionSidebar
        store={store}
        sessions={state.sessions}
        activeId={settingsTab ? undefined : state.activeId}
        searchSignal={searchSignal}
        onOpenSettings={() => setSettingsTab('providers')}
      />
      {settingsTab ? (
        <main className="main-pane settings-pane">
          <SettingsScreen
            client={store.client}
            tab={settingsTab}
            onTab={setSettingsTab}
            onClose={() => {
              setSettingsTab(undefined);
              setAddingProvider(false);
            }}
            onSaved={() => void store.refresh()}
            startAdding={addingProvider}
            envModel={
              state.appInfo?.defaultModel === 'override'
                ? state.appInfo.models.find((choice) => choice.name === 'override')?.model
                : undefined
            }
          />
        </main>
      ) : (
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
            {noModel && view ? (
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
                  extra={
                    <>
                      {!running && view.items.length > 0 ? (
                        <button
                          type="button"
                          className={inReview ? 'toggle active' : 'toggle'}
                          onClick={() => setReviewing(inReview ? undefined : view.sessionId)}
                          data-testid="toggle-review"
                        >
                          ▶ {t('review.button')}
                        </button>
                      ) : null}
                      <button
                        type="button"
                        className={panel === 'files' ? 'toggle active' : 'toggle'}
                        onClick={() => store.showPanel(panel === 'files' ? 'none' : 'files')}
                        data-testid="toggle-files"
                      >
                        {t('workspace.title')}
                      </button>
                    </>
                  }
                />
                {inReview ? (
                  <ReviewView client={store.client} sessionId={view.sessionId} onExit={() => setReviewing(undefined)} />
                ) : view.items.length > 0 ? (
                  <MessageList sessionId={view.sessionId} items={view.items} live={running} onAnswer={answer} />
                ) : (
                  <div className="timeline-empty">{running ? t('session.emptyRun') : t('app.loading')}</div>
                )}
              </>
            ) : state.loadingId ? (
              <div className="timeline-empty">{t('app.loading')}</div>
            ) : noModel ? (
              <FirstRun
                onAddProvider={() => {
                  setAddingProvider(true);
                  setSettingsTab('providers');
                }}
              />
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
            attachments={attachments}
            onAttach={(files) => void attach(files)}
            onRemoveAttachment={(index) => setAttachments((current) => current.filter((_, at) => at !== index))}
          />
        </main>
      )}
      {panel !== 'none' && view && !settingsTab ? (
        <aside
          className={`side-panel ${panel === 'files' ? 'files-panel' : ''}`}
          aria-label={
            panel === 'plan' ? t('plan.title') : panel === 'files' ? t('workspace.title') : t('browserPanel.title')
          }
        >
          <ErrorBoundary resetKey={`${state.activeId}:${panel}`}>
            {panel === 'plan' ? (
              <PlanPanel plan={view.plan} />
            ) : panel === 'files' ? (
              <WorkspacePanel
                key={view.sessionId}
                client={store.client}
                sessionId={view.sessionId}
                changeKey={view.lastSeq}
                canOpen={state.appInfo?.shell === 'electron'}
              />
            ) : (
              <BrowserPanel screenshots={view.screenshots} />
            )}
          </ErrorBoundary>
        </aside>
      ) : null}
    </div>
  );
}
