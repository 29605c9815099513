import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { AppStore } from '../state/app-store.js';
import type { SessionView } from '../state/session-view.js';
import type { PanelChoice } from '../components/SessionHeader.js';
import { ErrorBoundary } from '../components/ErrorBoundary.js';
import { LoadingPane } from '../components/LoadingPane.js';
import { BrowserPanel } from '../components/BrowserPanel.js';
import { lazyNamed } from '../lib/lazy-named.js';
import './shell.css';

// loaded when first shown: the plan renders Markdown, the workspace its file previews
const PlanPanel = lazyNamed(() => import('../components/PlanPanel.js'), 'PlanPanel');
const WorkspacePanel = lazyNamed(() => import('../features/workspace/WorkspacePanel.js'), 'WorkspacePanel');

/** The open session's plan, workspace files or browser screenshots, beside the timeline. */
export function SidePanel({
  store,
  view,
  panel,
  canOpen,
}: {
  store: AppStore;
  view: SessionView;
  panel: Exclude<PanelChoice, 'none'>;
  /** the desktop app can open files with the system's apps */
  canOpen: boolean;
}) {
  const { t } = useTranslation();
  return (
    <aside
      className={`side-panel ${panel === 'files' ? 'files-panel' : ''}`}
      aria-label={
        panel === 'plan' ? t('plan.title') : panel === 'files' ? t('workspace.title') : t('browserPanel.title')
      }
    >
      <ErrorBoundary resetKey={`${view.sessionId}:${panel}`}>
        <Suspense fallback={<LoadingPane />}>
          {panel === 'plan' ? (
            <PlanPanel plan={view.plan} />
          ) : panel === 'files' ? (
            <WorkspacePanel
              key={view.sessionId}
              client={store.client}
              sessionId={view.sessionId}
              changeKey={view.lastSeq}
              canOpen={canOpen}
            />
          ) : (
            <BrowserPanel screenshots={view.screenshots} />
          )}
        </Suspense>
      </ErrorBoundary>
    </aside>
  );
}
