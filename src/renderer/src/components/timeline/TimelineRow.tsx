import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import type { TimelineItem } from '../../state/session-view.js';
import type { TurnEnd as TurnEndState } from '../../state/turn-end.js';
import { readableNotice } from '../../lib/core-messages.js';
import { MessageRow } from './MessageRow.js';
import { ToolCard } from './ToolCard.js';
import { AskCard } from './AskCard.js';
import { TurnEnd } from './TurnEnd.js';
import { RetryNotice } from './RetryNotice.js';
import { ProblemBanner } from '../ProblemBanner.js';
import { Markdown } from '../Markdown.js';
import './timeline.css';
import './tool-card.css';

export interface RowActions {
  isOpen: (key: string) => boolean;
  toggle: (key: string) => void;
  answer: (askId: string, answer: string) => Promise<void>;
  /** the last turn's end when it did not finish: its card gets Retry and Resume */
  turnEnd?: TurnEndState;
  retry?: () => Promise<void>;
  resume?: () => Promise<void>;
  /** absent where settings cannot open (a review): the error then shows no button */
  openProviderSettings?: (provider: string | undefined) => void;
}

export const TimelineRow = memo(function TimelineRow({
  item,
  live,
  scrolling,
  actions,
}: {
  item: TimelineItem;
  live: boolean;
  /** the list is being scrolled fast: rows keep their rendering cheap */
  scrolling: boolean;
  actions: RowActions;
}) {
  const { t } = useTranslation();
  switch (item.kind) {
    case 'message':
      return <MessageRow item={item} live={live} deferMarkdown={scrolling} />;
    case 'tool':
      return <ToolCard item={item} open={actions.isOpen(item.key)} onToggle={actions.toggle} />;
    case 'ask':
      return <AskCard item={item} onAnswer={actions.answer} />;
    case 'error':
      return (
        <ProblemBanner
          code={item.code}
          message={item.message}
          hint={item.hint}
          params={item.params}
          onOpenProviderSettings={actions.openProviderSettings}
        />
      );
    case 'notice':
      if (item.code === 'retrying' && item.params) return <RetryNotice item={item} live={live} />;
      return (
        <div className={`notice notice-${item.level}`} data-code={item.code}>
          {readableNotice(t, item.code, item.text, item.params)}
        </div>
      );
    case 'step':
      return (
        <div className={`step-marker step-${item.action}`}>
          <span>{t(`step.${item.action}`, { index: item.stepIndex + 1 })}</span>
          <span className="step-description">{item.description}</span>
          {item.agent ? <span className="badge">{item.agent}</span> : null}
          {item.error ? <span className="step-error">{item.error}</span> : null}
        </div>
      );
    case 'done':
      if (actions.turnEnd?.key === item.key && actions.retry && actions.resume) {
        return <TurnEnd item={item} end={actions.turnEnd} onRetry={actions.retry} onResume={actions.resume} />;
      }
      return (
        <article className={`done-card done-${item.status}`}>
          <header>{t(`done.${item.status}`)}</header>
          {/* a stopped run's result is the core's English "Cancelled by the user.": the header says it */}
          {item.result && !item.repeatsLastMessage && item.status !== 'cancelled' ? (
            <Markdown text={item.result} />
          ) : null}
        </article>
      );
  }
});
