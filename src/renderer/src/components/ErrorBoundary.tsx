import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './error-boundary.css';

function CrashNotice({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="crash" role="alert">
      <h2>{t('crash.title')}</h2>
      <p>{t('crash.body')}</p>
      <pre className="tool-error-text">{error.message}</pre>
      <div className="crash-actions">
        <button type="button" className="primary" onClick={onRetry}>
          {t('crash.retry')}
        </button>
        <button type="button" onClick={() => window.location.reload()}>
          {t('crash.reload')}
        </button>
      </div>
    </div>
  );
}

/** A render error shows what failed and a way back, never a blank window. */
export class ErrorBoundary extends Component<{ children: ReactNode; resetKey?: string }, { error?: Error }> {
  override state: { error?: Error } = {};

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidUpdate(previous: { resetKey?: string }) {
    if (previous.resetKey !== this.props.resetKey && this.state.error) this.setState({ error: undefined });
  }

  override componentDidCatch(error: Error) {
    console.error('render error', error);
  }

  override render() {
    if (this.state.error)
      return <CrashNotice error={this.state.error} onRetry={() => this.setState({ error: undefined })} />;
    return this.props.children;
  }
}
