import { Suspense, useCallback, useEffect, useState } from 'react';
import { useAppState, type AppStore } from './state/app-store.js';
import { isRunning, waitingQuestion } from './state/session-view.js';
import { SessionSidebar } from './features/sessions/SessionSidebar.js';
import type { SettingsTab } from './features/settings/settings-types.js';
import { Composer } from './components/Composer.js';
import type { TurnChoices } from './components/FlowChoices.js';
import { ErrorBoundary } from './components/ErrorBoundary.js';
import { LoadingPane } from './components/LoadingPane.js';
import { lazyNamed } from './lib/lazy-named.js';
import { Banners } from './shell/Banners.js';
import { MissingToken } from './components/MissingToken.js';
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
  const [editingProvider, setEditingProvider] = useState<string>();
  const [reviewing, setReviewing] = useState<string>();
  const [searchSignal, setSearchSignal] = useState<number>();
  /** the folder the next new session works in; its own new folder when unset */
  const [workspaceFolder, setWorkspaceFolder] = useState<string>();
  const {
    attachments,
    attach,
    remove: removeAttachment,
    clear: clearAttachments,
    uploadedIds,
  } = useAttachments(store, state.appInfo?.uploadLimitBytes);
  const view = state.activeId ? state.views[state.activeId] : undefined;
  const running = isRunning(view);
  const panel = panelFor(state.sidePanel, view);
  const inReview = Boolean(view && reviewing === view.sessionId && !running);
  const noModel = state.appInfo?.models.length === 0;
  const question = waitingQuestion(view);
  const answer = useCallback((askId: string, reply: string) => store.answer(askId, reply), [store]);
  // a review shows the plan and browser of the moment it replays, in its own panel
  const sidePanelShown = panel !== 'none' && Boolean(view) && !settingsTab && !inReview;

  useEffect(() => store.start(), [store]);
  // an error's "open the provider's settings": on that provider's form when it is a saved one
  const openProviderSettings = useCallback((provider: string | undefined) => {
    setSettingsTab('providers');
    setEditingProvider(provider);
  }, []);
  const focusSearch = useCallback(() => setSearchSignal(Date.now()), []);
  useMenuCommands(store, { setSettingsTab, focusSearch });
  useAppShortcuts(store, { setSettingsTab, focusSearch });

  const send = useCallback(
    async (task: string, choices: TurnChoices, model: string | undefined) => {
      // an agent-mode turn sends no flow choices: the session keeps the ones it has for its next flow
      const flowChoices = choices.mode === 'agent' ? {} : { agents: choices.agents, parallel: choices.parallel };
      // sent while its files upload: it goes once they are uploaded, and not at all if one failed or was taken off
      const uploads = await uploadedIds(attachments);
      if (!uploads) return false;
      const sent = await store.send({
        task,
        mode: choices.mode,
        ...flowChoices,
        model,
        uploads,
        workspace: view ? undefined : workspaceFolder,
      });
      if (sent) {
        clearAttachments(attachments);
        setWorkspaceFolder(undefined);
      }
      return sent;
    },
    [store, attachments, uploadedIds, clearAttachments, view, workspaceFolder],
  );

  // the server refused this page's token (it restarted with a new one): say so, and how to get back in
  if (state.connection === 'unauthorized') return <MissingToken refused />;

  return (
    <div className={`app-shell ${sidePanelShown ? 'with-panel' : ''}`}>
      <SessionSidebar
        store={store}
        sessions={state.sessions}
        listed={state.sessionsListed}
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
                setEditingProvider(undefined);
              }}
              onSaved={() => void store.refresh()}
              startAdding={addingProvider}
              editProvider={editingProvider}
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
          <Banners
            store={store}
            state={state}
            noModel={Boolean(noModel && view)}
            onOpenProviderSettings={openProviderSettings}
          />
          <ErrorBoundary resetKey={state.activeId}>
            {view ? (
              <Suspense fallback={<LoadingPane />}>
                <SessionPane
                  store={store}
                  view={view}
                  panel={panel}
                  inReview={inReview}
                  onReview={setReviewing}
                  onOpenProviderSettings={openProviderSettings}
                />
              </Suspense>
            ) : (
              <StartPane
                loading={Boolean(state.loadingId)}
                known={Boolean(state.appInfo)}
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
            session={view?.session}
            agents={state.appInfo?.agents}
            defaultAgents={state.appInfo?.defaultFlowAgents}
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
      {sidePanelShown && view ? (
        <SidePanel store={store} view={view} panel={panel} canOpen={state.appInfo?.shell === 'electron'} />
      ) : null}
    </div>
  );
}
