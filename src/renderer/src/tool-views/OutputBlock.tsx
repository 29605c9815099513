import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { CopyButton } from '../components/CopyButton.js';

/** A tool's output as plain text (never parsed as HTML), its error, or what is streaming in. */
export function OutputBlock({ item, terminal = false }: { item: ToolItem; terminal?: boolean }) {
  const { t } = useTranslation();
  const text = item.output ?? (item.status === 'calling' ? item.progress : '');
  return (
    <>
      {text || item.status === 'done' ? (
        <section className="tool-section">
          <header className="tool-section-title">
            {t('tool.output')}
            {text ? <CopyButton text={() => text} /> : null}
          </header>
          <pre className={terminal ? 'terminal' : 'tool-output'}>{text || t('tool.noOutput')}</pre>
        </section>
      ) : item.status === 'calling' ? (
        <p className="tool-running">{t('tool.running')}</p>
      ) : null}
      {item.error ? (
        <section className="tool-section">
          <header className="tool-section-title">{t('tool.error_label')}</header>
          <pre className="tool-error-text">{item.error}</pre>
        </section>
      ) : null}
    </>
  );
}
