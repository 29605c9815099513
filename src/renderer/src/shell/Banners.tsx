import { useTranslation } from 'react-i18next';
import type { AppState, AppStore } from '../state/app-store.js';
import { ProblemBanner } from '../components/ProblemBanner.js';

/** failures another banner already says: a request that failed because the server is gone, or no model is set */
function saidElsewhere(code: string, state: AppState, noModel: boolean): boolean {
  return (code === 'offline' && state.connection === 'reconnecting') || (code === 'no_llm' && noModel);
}

/** What stands in the way, above the session: the lost connection, no model, the last failed request; each once. */
export function Banners({
  store,
  state,
  noModel,
  onOpenProviderSettings,
}: {
  store: AppStore;
  state: AppState;
  noModel: boolean;
  onOpenProviderSettings: (provider: string | undefined) => void;
}) {
  const { t } = useTranslation();
  return (
    <div className="banners">
      {state.connection === 'reconnecting' ? (
        <ProblemBanner code="offline" message="" title={t('problems.offline.title')} hint={t('problems.offline.fix')} />
      ) : null}
      {noModel ? (
        <ProblemBanner
          code="no_llm"
          message=""
          title={t('problems.noModel.title')}
          hint={t('problems.noModel.fix')}
          actions={
            <button type="button" className="primary" onClick={() => onOpenProviderSettings(undefined)}>
              {t('coreMessages.openProviders')}
            </button>
          }
        />
      ) : null}
      {state.failure && !saidElsewhere(state.failure.code, state, noModel) ? (
        <ProblemBanner
          code={state.failure.code}
          message={state.failure.message}
          hint={state.failure.hint}
          onDismiss={() => store.dismissFailure()}
          onOpenProviderSettings={onOpenProviderSettings}
        />
      ) : null}
    </div>
  );
}
