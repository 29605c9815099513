import { useTranslation } from 'react-i18next';
import type { SectionProps } from './settings-types.js';

const POLICIES = ['auto', 'risky', 'all'] as const;

/** The tool approval policy the core enforces, and the tools the user chose to always allow. */
export function ApprovalSection({ settings, save }: SectionProps) {
  const { t } = useTranslation();
  const approval = settings.approval;
  return (
    <div className="settings-stack">
      <div className="choice-list" role="radiogroup" aria-label={t('settings.tabs.approval')}>
        {POLICIES.map((policy) => (
          <label key={policy} className={`choice ${approval.policy === policy ? 'active' : ''}`} data-policy={policy}>
            <input
              type="radio"
              name="policy"
              checked={approval.policy === policy}
              onChange={() => void save({ ...settings, approval: { ...approval, policy } })}
            />
            <span>
              <strong>{t(`settings.approval.${policy}`)}</strong>
              <small>{t(`settings.approval.${policy}Help`)}</small>
            </span>
          </label>
        ))}
      </div>
      <h3>{t('settings.approval.alwaysAllowed')}</h3>
      {approval.alwaysAllow.length === 0 ? (
        <p className="field-help">{t('settings.approval.noneAllowed')}</p>
      ) : (
        <ul className="chip-list">
          {approval.alwaysAllow.map((tool) => (
            <li key={tool} className="chip">
              <code>{tool}</code>
              <button
                type="button"
                className="ghost small"
                aria-label={t('common.remove')}
                onClick={() =>
                  void save({
                    ...settings,
                    approval: { ...approval, alwaysAllow: approval.alwaysAllow.filter((name) => name !== tool) },
                  })
                }
              >
                ✕
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
