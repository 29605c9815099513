import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SandboxState } from '../../../../shared/contract.js';
import { FailureText, useAction } from '../common/use-action.js';
import type { SectionProps } from './settings-types.js';
import { MIN_MEMORY_MB, MIN_WORKSPACE_QUOTA_MB } from './settings-schemas.js';

const POLL_RUNNING_MS = 1_000;
const POLL_IDLE_MS = 10_000;

/** Sandbox: engine and image status, build/pull with progress, limits and network. */
export function SandboxSection({ client, settings, save }: SectionProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<SandboxState>();
  const [draft, setDraft] = useState(settings.sandbox);
  const action = useAction();

  const refresh = useCallback(async () => {
    try {
      setState(await client.call('sandboxStatus', {}));
    } catch {
      // shown as unknown until the next poll
    }
  }, [client]);

  const building = state?.build.state === 'running';
  useEffect(() => {
    const first = setTimeout(() => void refresh(), 0);
    const timer = setInterval(() => void refresh(), building ? POLL_RUNNING_MS : POLL_IDLE_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [refresh, building]);

  const build = (method: 'dockerfile' | 'offline' | 'pull') =>
    void action.run(async () => {
      const job = await client.call('buildSandbox', { method });
      setState((current) => (current ? { ...current, build: job } : current));
    });

  const job = state?.build;
  return (
    <div className="settings-stack">
      <div className="status-grid" data-testid="sandbox-status">
        <div className="status-tile">
          <span className="plan-label">{t('settings.sandbox.engine')}</span>
          {state ? (
            state.engine.reachable ? (
              <strong className="ok-text">✓ Docker {state.engine.version}</strong>
            ) : (
              <>
                <strong className="danger-text">✕ {t('settings.sandbox.engineDown')}</strong>
                <small>{state.engine.error}</small>
              </>
            )
          ) : (
            <span className="spinner" aria-hidden />
          )}
        </div>
        <div className="status-tile">
          <span className="plan-label">{t('settings.sandbox.image')}</span>
          {state ? (
            <strong className={state.image.present ? 'ok-text' : 'warn-text'} data-testid="image-state">
              {state.image.present
                ? `✓ ${state.image.name}${state.image.sizeMb ? ` · ${state.image.sizeMb} MB` : ''}`
                : `${t('settings.sandbox.imageMissing')} · ${state.image.name}`}
            </strong>
          ) : null}
        </div>
      </div>

      <div className="build-box">
        <div className="form-actions">
          <button
            type="button"
            className="primary"
            disabled={building || !state?.engine.reachable}
            onClick={() => build('dockerfile')}
          >
            {t('settings.sandbox.build')}
          </button>
          <button type="button" disabled={building || !state?.engine.reachable} onClick={() => build('offline')}>
            {t('settings.sandbox.buildOffline')}
          </button>
          <button type="button" disabled={building || !state?.engine.reachable} onClick={() => build('pull')}>
            {t('settings.sandbox.pull')}
          </button>
        </div>
        {job && job.state !== 'idle' ? (
          <div className="build-progress" data-testid="build-progress" data-state={job.state}>
            <div className="plan-progress-text">
              {t(`settings.sandbox.buildStates.${job.state}`)}
              {job.percent !== undefined ? ` · ${job.percent}%` : ''}
            </div>
            <div className={`progress ${job.percent === undefined && building ? 'indeterminate' : ''}`}>
              <div className="progress-fill" style={{ width: `${job.percent ?? (building ? 30 : 100)}%` }} />
            </div>
            {job.error ? <p className="form-error">{job.error}</p> : null}
            {job.lines.length ? <pre className="build-log">{job.lines.slice(-8).join('\n')}</pre> : null}
          </div>
        ) : null}
      </div>

      <form
        className="settings-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save({ ...settings, sandbox: draft });
        }}
      >
        <label className="field">
          <span>{t('settings.sandbox.mode')}</span>
          <select
            value={draft.mode}
            onChange={(event) => setDraft({ ...draft, mode: event.target.value as 'docker' | 'local' })}
          >
            <option value="docker">{t('settings.sandbox.modeDocker')}</option>
            <option value="local">{t('settings.sandbox.modeLocal')}</option>
          </select>
        </label>
        <div className="field-row">
          <label className="field">
            <span>{t('settings.sandbox.memory')}</span>
            <input
              type="number"
              min={MIN_MEMORY_MB}
              step={64}
              value={draft.memoryMb}
              onChange={(event) =>
                setDraft({ ...draft, memoryMb: Math.max(MIN_MEMORY_MB, Number(event.target.value) || MIN_MEMORY_MB) })
              }
              data-testid="sandbox-memory"
            />
          </label>
          <label className="field">
            <span>{t('settings.sandbox.cpus')}</span>
            <input
              type="number"
              min={0.25}
              step={0.25}
              value={draft.cpus}
              onChange={(event) => setDraft({ ...draft, cpus: Math.max(0.25, Number(event.target.value) || 1) })}
            />
          </label>
          <label className="field">
            <span>{t('settings.sandbox.workspaceQuota')}</span>
            <input
              type="number"
              min={MIN_WORKSPACE_QUOTA_MB}
              step={512}
              value={draft.workspaceQuotaMb}
              onChange={(event) =>
                setDraft({
                  ...draft,
                  workspaceQuotaMb: Math.max(MIN_WORKSPACE_QUOTA_MB, Math.round(Number(event.target.value) || 0)),
                })
              }
              data-testid="sandbox-workspace-quota"
            />
          </label>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={draft.network}
            onChange={(event) => setDraft({ ...draft, network: event.target.checked })}
          />
          {t('settings.sandbox.network')}
        </label>
        <FailureText failure={action.failure} />
        <div className="form-actions">
          <span className="spacer" />
          <button type="submit" className="primary" data-testid="save-sandbox">
            {t('common.save')}
          </button>
        </div>
      </form>
    </div>
  );
}
