import { memo } from 'react';
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
  const streaming = item.streaming && live;
  const plain = item.role === 'user' || (deferMarkdown && !streaming && !isMarkdownCached(item.text));
  return (
    <article className={`message message-${item.role} ${streaming ? 'streaming' : ''}`} data-role={item.role}>
      {item.role !== 'user' && item.agent ? <div className="message-agent">{item.agent}</div> : null}
      <div className="message-body">
        {plain ? <p className="plain-text">{item.text}</p> : <Markdown text={item.text} streaming={streaming} />}
        {item.attachments.length > 0 ? (
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
      </div>
      {item.role === 'assistant' && !streaming && item.text ? (
        <div className="message-actions">
          <CopyButton text={() => item.text} />
        </div>
      ) : null}
    </article>
  );
});
