import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { stringField } from '../lib/tool-args.js';
import { OutputBlock } from './OutputBlock.js';
import { ImageStrip } from './ImageStrip.js';

export function BrowserView({ item }: { item: ToolItem }) {
  const { t } = useTranslation();
  const url = stringField(item.args, 'url');
  return (
    <>
      <p className="browser-action">
        <span className="badge">{stringField(item.args, 'action') ?? item.name}</span>
        {url ? <span className="browser-url">{url}</span> : null}
      </p>
      <ImageStrip images={item.images} label={t('tool.screenshot')} />
      <OutputBlock item={item} />
    </>
  );
}
