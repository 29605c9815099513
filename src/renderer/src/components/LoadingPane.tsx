import { useTranslation } from 'react-i18next';

/** What a part of the window shows while its code or its data arrives: a status line screen readers announce. */
export function LoadingPane() {
  const { t } = useTranslation();
  return (
    <div className="pane-loading" role="status">
      {t('app.loading')}
    </div>
  );
}
