import { useTranslation } from 'react-i18next';
import { STEP_MARKERS, type PlanView } from '../state/session-view.js';
import { Markdown } from './Markdown.js';
import './panels.css';

/** The live plan: progress, the current step, and each step's notes, result and agent. */
export function PlanPanel({ plan }: { plan: PlanView | undefined }) {
  const { t } = useTranslation();
  if (!plan) return <p className="panel-empty">{t('plan.none')}</p>;
  const percent = plan.totalSteps === 0 ? 0 : Math.round((plan.completedSteps / plan.totalSteps) * 100);
  const current = plan.currentStep === undefined ? undefined : plan.snapshot.steps[plan.currentStep];
  return (
    <div className="plan-panel" data-testid="plan-panel">
      <h2 className="plan-title">{plan.snapshot.title}</h2>
      {plan.snapshot.goal ? (
        <p className="plan-goal">
          <span className="plan-label">{t('planAct.goal')}</span> {plan.snapshot.goal}
        </p>
      ) : null}
      <div
        className="progress"
        role="progressbar"
        aria-label={t('polish.planProgress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <p className="plan-progress-text">{t('plan.progress', { done: plan.completedSteps, count: plan.totalSteps })}</p>
      {current ? (
        <div className="plan-current">
          <span className="plan-label">{t('plan.current')}</span>
          <span>{current.text}</span>
        </div>
      ) : null}
      <ol className="plan-steps">
        {plan.snapshot.steps.map((step, index) => {
          const outcome = plan.outcomes[index];
          const agent = outcome?.agent ?? step.agent;
          // the snapshot carries results too: a view opened on the last events still has them
          const result = outcome?.result ?? step.result;
          const files = outcome?.attachments ?? step.attachments ?? [];
          const error = outcome?.error ?? step.error;
          return (
            <li
              key={index}
              className={`plan-step plan-step-${step.status} ${index === plan.currentStep ? 'current' : ''}`}
              data-status={step.status}
            >
              <div className="plan-step-head">
                <span className="plan-marker">{STEP_MARKERS[step.status]}</span>
                <span className="plan-step-text">{step.text}</span>
                {agent ? <span className="badge">{agent}</span> : null}
              </div>
              {step.notes && step.notes !== result && step.notes !== error ? (
                <div className="plan-step-detail">
                  <span className="plan-label">{t('plan.notes')}</span> {step.notes}
                </div>
              ) : null}
              {error ? (
                <div className="plan-step-detail plan-step-error">
                  <span className="plan-label">{t('planAct.error')}</span> {error}
                </div>
              ) : null}
              {result && result !== error ? (
                <details className="plan-step-detail">
                  <summary className="plan-label">{t('plan.result')}</summary>
                  <Markdown text={result} />
                </details>
              ) : null}
              {files.length > 0 ? (
                <ul className="plan-step-files" aria-label={t('planAct.files')}>
                  {files.map((path) => (
                    <li key={path} className="file-chip">
                      {path}
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          );
        })}
      </ol>
    </div>
  );
}
