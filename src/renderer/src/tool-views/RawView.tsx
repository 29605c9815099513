import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { CopyButton } from '../components/CopyButton.js';
import { OutputBlock } from './OutputBlock.js';
import { ImageStrip } from './ImageStrip.js';

function pretty(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? '';
  } catch {
    return String(value);
  }
}

/** Arguments as JSON, then the result as the tool gave it (MCP tools and anything without its own view). */
export function RawView({ item, raw = false }: { item: ToolItem; raw?: boolean }) {
  const { t } = useTranslation();
  const args = pretty(item.args);
  return (
    <>
      <section className="tool-section">
        <header className="tool-section-title">
          {t('tool.arguments')}
          <CopyButton text={() => args} />
        </header>
        <pre className="tool-output">{args}</pre>
      </section>
      {raw ? <p className="tool-section-title">{t('tool.rawResult')}</p> : null}
      <OutputBlock item={item} />
      <ImageStrip images={item.images} label={t('tool.figures')} />
    </>
  );
}
