import { useTranslation } from 'react-i18next';
import type { ToolItem } from '../state/session-view.js';
import { stringField } from '../lib/tool-args.js';
import { lineDiff } from '../lib/line-diff.js';
import { CodeView } from './CodeView.js';
import { OutputBlock } from './OutputBlock.js';

const LANGUAGE_BY_EXTENSION: Record<string, string> = {
  py: 'python',
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  json: 'json',
  md: 'markdown',
  sh: 'bash',
  html: 'xml',
  css: 'css',
  yml: 'yaml',
  yaml: 'yaml',
};

function languageOf(path: string | undefined): string {
  const extension = path?.split('.').pop()?.toLowerCase() ?? '';
  return LANGUAGE_BY_EXTENSION[extension] ?? '';
}

/** create → the new content; str_replace/insert → a diff; view and the rest → the output. */
export function FileEditView({ item }: { item: ToolItem }) {
  const { t } = useTranslation();
  const path = stringField(item.args, 'path');
  const command = stringField(item.args, 'command');
  const content = stringField(item.args, 'file_text') ?? stringField(item.args, 'content');
  const before = stringField(item.args, 'old_str');
  const after = stringField(item.args, 'new_str') ?? (command === 'insert' ? '' : undefined);
  return (
    <>
      {path ? <p className="file-path">{path}</p> : null}
      {content !== undefined ? <CodeView label={t('tool.content')} code={content} language={languageOf(path)} /> : null}
      {after !== undefined ? (
        <section className="tool-section">
          <header className="tool-section-title">{t('tool.diff')}</header>
          <pre className="diff">
            {lineDiff(before ?? '', after).map((line, index) => (
              <div key={index} className={`diff-line diff-${line.kind}`}>
                <span className="diff-sign">{line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}</span>
                {line.text}
              </div>
            ))}
          </pre>
        </section>
      ) : null}
      <OutputBlock item={item} />
    </>
  );
}
