import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { stringField } from '../lib/tool-args.js';
import { CodeView } from './CodeView.js';
import { OutputBlock } from './OutputBlock.js';
import { ImageStrip } from './ImageStrip.js';

export function PythonView({ item }: { item: ToolItem }) {
  const { t } = useTranslation();
  return (
    <>
      <CodeView label={t('tool.code')} code={stringField(item.args, 'code') ?? ''} language="python" />
      <OutputBlock item={item} />
      <ImageStrip images={item.images} label={t('tool.figures')} />
    </>
  );
}
