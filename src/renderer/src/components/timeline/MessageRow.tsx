import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { MessageItem } from '../../state/session-view.js';
import { Markdown, isMarkdownCached } from '../Markdown.js';
import { CopyButton } from '../CopyButton.js';
import { imageSource } from '../../lib/format.js';
import { PaperclipIcon } from '../../features/common/PaperclipIcon.js';
import './timeline.css';

/** While the list flies past, text not rendered before shows plain; Markdown follows when scrolling stops. */
export const MessageRow = memo(function MessageRow({
  item,
  live,
  deferMarkdown,
}: {
  item: MessageItem;
  live: boolean;
  deferMarkdown: boolean;
}) {
  const { t } = useTranslation();
  const streaming = item.streaming && live;
  const pictured = new Set(item.images.map((image) => image.path));
  // a user's files show as chips; what another message presents (a step's results) as a list, pictures left out
  const files = item.role === 'user' ? [] : item.attachments.filter((path) => !pictured.has(path));
  const plain = item.role === 'user' || (deferMarkdown && !streaming && !isMarkdownCached(item.text));
  return (
    <article className={`message message-${item.role} ${streaming ? 'streaming' : ''}`} data-role={item.role}>
      {item.role !== 'user' && item.agent ? (
        <div className="message-agent">
          {item.agent}
          {item.step ? (
            <span className="message-step">{t('planAct.stepMessage', { index: item.step.stepIndex + 1 })}</span>
          ) : null}
        </div>
      ) : null}
      <div className="message-body">
        {plain ? <p className="plain-text">{item.text}</p> : <Markdown text={item.text} streaming={streaming} />}
        {item.role === 'user' && item.attachments.length > 0 ? (
          <ul className="message-attachments" data-testid="message-attachments">
            {item.attachments.map((path) => (
              <li key={path} className="chip" title={path}>
                <PaperclipIcon size={13} /> {path.split('/').pop()}
              </li>
            ))}
          </ul>
        ) : null}
        {streaming ? <span className="stream-caret" aria-hidden /> : null}
        {item.images.length > 0 ? (
          <div className="message-images">
            {item.images.map((image, index) => (
              <img key={index} src={imageSource(image)} alt={image.path ?? ''} loading="lazy" />
            ))}
          </div>
        ) : null}
        {files.length > 0 ? (
          <ul className="message-files" aria-label={t('planAct.files')}>
            {files.map((path) => (
              <li key={path} className="file-chip">
                {path}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
      {item.role === 'assistant' && !streaming && item.text ? (
        <div className="message-actions">
          <CopyButton text={() => item.text} />
        </div>
      ) : null}
    </article>
  );
});
