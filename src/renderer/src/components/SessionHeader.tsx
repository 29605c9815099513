import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionView } from '../state/session-view.js';
import { UsageBadge } from './UsageBadge.js';
import './session-header.css';

export type PanelChoice = 'plan' | 'browser' | 'files' | 'none';

export function SessionHeader({
  view,
  panel,
  onPanel,
  onResume,
  extra,
}: {
  view: SessionView;
  panel: PanelChoice;
  onPanel: (panel: PanelChoice) => void;
  onResume: () => void;
  /** more tools (issue 8: review, workspace files) */
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const status = view.status ?? 'idle';
  const activity = view.activity;
  const running = status === 'running';
  // while a Plan-Act planner works no agent does: the header says what the planner is doing
  const planner =
    view.flowPhase === 'planning'
      ? t('session.planning')
      : view.flowPhase === 'updating'
        ? t('session.updatingPlan')
        : undefined;
  return (
    <header className="session-header">
      <div className="session-heading">
        <h1 className="session-name" title={view.title}>
          {view.title ?? view.session?.title ?? t('app.loading')}
        </h1>
        {/* small facts under the title; the line wraps, so one more figure fits at any width */}
        <div className="session-meta">
          <span className={`status-pill status-${status}`} data-testid="session-status" data-status={status}>
            {running ? <span className="spinner" aria-hidden /> : null}
            {t(`status.${status}`)}
          </span>
          {running && planner ? (
            <span className="activity" data-testid="flow-phase" data-phase={view.flowPhase}>
              {planner}
            </span>
          ) : running && activity ? (
            <span className="activity">
              {activity.agent} · {activity.phase === 'thinking' ? t('session.thinking') : t('session.acting')} ·{' '}
              {t('session.step', { step: activity.step, max: activity.maxSteps })}
            </span>
          ) : null}
          <UsageBadge usage={view.usage ?? view.session?.usage} />
        </div>
      </div>
      <div className="session-tools">
        {extra}
        {status === 'interrupted' ? (
          <button type="button" onClick={onResume} title={t('session.resumeHint')}>
            ↻ {t('session.resume')}
          </button>
        ) : null}
        <button
          type="button"
          className={panel === 'plan' ? 'toggle active' : 'toggle'}
          aria-pressed={panel === 'plan'}
          onClick={() => onPanel(panel === 'plan' ? 'none' : 'plan')}
          data-testid="toggle-plan"
        >
          {t('session.plan')}
          {view.plan ? ` ${view.plan.completedSteps}/${view.plan.totalSteps}` : ''}
        </button>
        <button
          type="button"
          className={panel === 'browser' ? 'toggle active' : 'toggle'}
          aria-pressed={panel === 'browser'}
          onClick={() => onPanel(panel === 'browser' ? 'none' : 'browser')}
          data-testid="toggle-browser"
        >
          {t('session.browser')}
          {view.screenshots.length ? ` ${view.screenshots.length}` : ''}
        </button>
      </div>
    </header>
  );
}
