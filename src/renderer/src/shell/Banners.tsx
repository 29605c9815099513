import { useTranslation } from 'react-i18next';
import type { AppState, AppStore } from '../state/app-store.js';
import { ProblemBanner } from '../components/ProblemBanner.js';

/** What stands in the way, above the session: the lost connection, a refused token, no model, the last failure. */
export function Banners({ store, state, noModel }: { store: AppStore; state: AppState; noModel: boolean }) {
  const { t } = useTranslation();
  return (
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
      {noModel ? (
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
  );
}
