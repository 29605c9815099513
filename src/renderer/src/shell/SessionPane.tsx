import { Suspense, useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppStore } from '../state/app-store.js';
import { isRunning, type SessionView } from '../state/session-view.js';
import { hasOlderEvents } from '../state/session-window.js';
import { withTurnEnd } from '../state/turn-end.js';
import { SessionHeader, type PanelChoice } from '../components/SessionHeader.js';
import { MessageList } from '../components/MessageList.js';
import { LoadingPane } from '../components/LoadingPane.js';
import { lazyNamed } from '../lib/lazy-named.js';

// loaded when a review is first opened
const ReviewView = lazyNamed(() => import('../features/sessions/ReviewView.js'), 'ReviewView');

/** The open session: its header with the review and files toggles, then its timeline or its review. */
export function SessionPane({
  store,
  view,
  panel,
  inReview,
  onReview,
  onOpenProviderSettings,
}: {
  store: AppStore;
  view: SessionView;
  panel: PanelChoice;
  inReview: boolean;
  onReview: (sessionId: string | undefined) => void;
  onOpenProviderSettings: (provider: string | undefined) => void;
}) {
  const { t } = useTranslation();
  const running = isRunning(view);
  const answer = useCallback(async (askId: string, reply: string) => void (await store.answer(askId, reply)), [store]);
  const loadOlder = useCallback(() => void store.loadOlder(view.sessionId), [store, view.sessionId]);
  const retry = useCallback(() => store.retry(), [store]);
  const resume = useCallback(() => store.resume(), [store]);
  const timeline = useMemo(() => withTurnEnd(view), [view]);
  // a review has its own plan and browser: choosing a side panel goes back to the live session to show it
  const choosePanel = (choice: PanelChoice) => {
    if (inReview && choice !== 'none') onReview(undefined);
    store.showPanel(choice);
  };
  const shownPanel = inReview ? 'none' : panel;
  return (
    <>
      <SessionHeader
        view={view}
        panel={shownPanel}
        onPanel={choosePanel}
        onResume={() => void store.resume()}
        extra={
          <>
            {!running && view.items.length > 0 ? (
              <button
                type="button"
                className={inReview ? 'toggle active' : 'toggle'}
                aria-pressed={inReview}
                onClick={() => onReview(inReview ? undefined : view.sessionId)}
                data-testid="toggle-review"
              >
                ▶ {t('review.button')}
              </button>
            ) : null}
            <button
              type="button"
              className={shownPanel === 'files' ? 'toggle active' : 'toggle'}
              aria-pressed={shownPanel === 'files'}
              onClick={() => choosePanel(shownPanel === 'files' ? 'none' : 'files')}
              data-testid="toggle-files"
            >
              {t('workspace.title')}
            </button>
          </>
        }
      />
      {inReview ? (
        <Suspense fallback={<LoadingPane />}>
          <ReviewView client={store.client} sessionId={view.sessionId} onExit={() => onReview(undefined)} />
        </Suspense>
      ) : view.items.length > 0 ? (
        <MessageList
          sessionId={view.sessionId}
          items={timeline.items}
          live={running}
          onAnswer={answer}
          turnEnd={timeline.end}
          onRetry={retry}
          onResume={resume}
          onOpenProviderSettings={onOpenProviderSettings}
          hasOlder={hasOlderEvents(view)}
          onNearTop={loadOlder}
        />
      ) : (
        <div className="timeline-empty">{running ? t('session.emptyRun') : t('app.loading')}</div>
      )}
    </>
  );
}
