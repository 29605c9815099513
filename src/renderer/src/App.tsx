import { Suspense, useCallback, useEffect, useState } from 'react';
import type { SessionMode } from '../../shared/events.js';
import { useAppState, type AppStore } from './state/app-store.js';
import { waitingQuestion } from './state/session-view.js';
import { SessionSidebar } from './features/sessions/SessionSidebar.js';
import type { SettingsTab } from './features/settings/settings-types.js';
import { Composer } from './components/Composer.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { LoadingPane } from './components/LoadingPane.js';
import { lazyNamed } from './lib/lazy-named.js';
import { Banners } from './shell/Banners.js';
import { loadSessionPane } from './shell/load-session-pane.js';
import { StartPane } from './shell/StartPane.js';
import { FolderPicker } from './features/workspace-folder/FolderPicker.js';
import { SidePanel } from './shell/SidePanel.js';
import { panelFor } from './shell/panel-for.js';
import { useAttachments } from './features/uploads/use-attachments.js';
import { useAppShortcuts, useMenuCommands } from './shell/use-app-commands.js';
import './shell/shell.css';

// each loads when first shown: the first screen is the welcome and the composer, neither settings nor a timeline
const SettingsScreen = lazyNamed(() => import('./features/settings/SettingsScreen.js'), 'SettingsScreen');
const SessionPane = lazyNamed(loadSessionPane, 'SessionPane');

/** The window: the sessions sidebar, then settings or the session column (banners, session, composer), then a panel. */
export function App({ store }: { store: AppStore }) {
  const state = useAppState(store, (current) => current);
  const [draft, setDraft] = useState('');
  const [settingsTab, setSettingsTab] = useState<SettingsTab>();
  const [addingProvider, setAddingProvider] = useState(false);
  const [reviewing, setReviewing] = useState<string>();
  const [searchSignal, setSearchSignal] = useState<number>();
  /** the folder the next new session works in; its own new folder when unset */
  const [workspaceFolder, setWorkspaceFolder] = useState<string>();
  const {
    attachments,
    attach,
    remove: removeAttachment,
    clear: clearAttachments,
  } = useAttachments(store, state.appInfo?.uploadLimitBytes);
  const view = state.activeId ? state.views[state.activeId] : undefined;
  const running = view?.status === 'running';
  const panel = panelFor(state.sidePanel, view);
  const inReview = Boolean(view && reviewing === view.sessionId && !running);
  const noModel = state.appInfo?.models.length === 0;
  const question = waitingQuestion(view);
  const answer = useCallback((askId: string, reply: string) => store.answer(askId, reply), [store]);

  useEffect(() => store.start(), [store]);
  const focusSearch = useCallback(() => setSearchSignal(Date.now()), []);
  useMenuCommands(store, { setSettingsTab, focusSearch });
  useAppShortcuts(store, { setSettingsTab, focusSearch });

  const send = useCallback(
    async (task: string, mode: SessionMode, model: string | undefined) => {
      const sent = await store.send({
        task,
        mode,
        model,
        uploads: attachments.flatMap(({ uploadId }) => (uploadId ? [uploadId] : [])),
        workspace: view ? undefined : workspaceFolder,
      });
      if (sent) {
        clearAttachments();
        setWorkspaceFolder(undefined);
      }
      return sent;
    },
    [store, attachments, clearAttachments, view, workspaceFolder],
  );

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
          <Suspense fallback={<LoadingPane />}>
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
          </Suspense>
        </main>
      ) : (
        <main className="main-pane">
          <Banners store={store} state={state} noModel={Boolean(noModel && view)} />
          <ErrorBoundary resetKey={state.activeId}>
            {view ? (
              <Suspense fallback={<LoadingPane />}>
                <SessionPane store={store} view={view} panel={panel} inReview={inReview} onReview={setReviewing} />
              </Suspense>
            ) : (
              <StartPane
                loading={Boolean(state.loadingId)}
                noModel={Boolean(noModel)}
                onAddProvider={() => {
                  setAddingProvider(true);
                  setSettingsTab('providers');
                }}
                onPickExample={(task) => {
                  setDraft(task);
                  store.runCommand('focusComposer');
                }}
                folderPicker={
                  <FolderPicker
                    client={store.client}
                    shell={state.appInfo?.shell}
                    chosen={workspaceFolder}
                    onChoose={setWorkspaceFolder}
                  />
                }
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
            answering={question ? { askId: question.askId, question: question.question } : undefined}
            onAnswer={answer}
            attachments={attachments}
            onAttach={attach}
            onRemoveAttachment={removeAttachment}
          />
        </main>
      )}
      {panel !== 'none' && view && !settingsTab ? (
        <SidePanel store={store} view={view} panel={panel} canOpen={state.appInfo?.shell === 'electron'} />
      ) : null}
    </div>
  );
}
