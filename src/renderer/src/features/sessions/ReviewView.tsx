import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoreEvent } from '../../../../shared/events.js';
import type { ManusClient } from '../../client/manus-client.js';
import { sessionViewFromEvents } from '../../state/session-view.js';
import { MessageList } from '../../components/MessageList.js';
import { PlanPanel } from '../../components/PlanPanel.js';
import { BrowserPanel } from '../../components/BrowserPanel.js';
import { failureOf, FailureText, type Failure } from '../common/use-action.js';
import { reviewMarks, type ReviewMark } from './review-marks.js';
import { useShortcut } from '../../shortcuts/use-shortcut.js';
import './sessions.css';

const MARK_ICONS: Record<string, string> = {
  user: '●',
  reply: '◆',
  tool: '⚙',
  plan: '☰',
  step: '→',
  ask: '?',
  error: '!',
  done: '■',
};

const noAnswer = async () => undefined;

/** Replays a saved session from its stored events through the same reducers as the live view, up to a chosen moment. */
export function ReviewView({
  client,
  sessionId,
  onExit,
}: {
  client: ManusClient;
  sessionId: string;
  onExit: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [events, setEvents] = useState<CoreEvent[]>();
  const [position, setPosition] = useState(0);
  const [failure, setFailure] = useState<Failure>();
  const marksRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    let current = true;
    client.call('getEvents', { sessionId }).then(
      (loaded) => {
        if (!current) return;
        const sorted = [...loaded].sort((a, b) => a.seq - b.seq);
        setEvents(sorted);
        setPosition(sorted.length);
      },
      (error: unknown) => current && setFailure(failureOf(error)),
    );
    return () => {
      current = false;
    };
  }, [client, sessionId]);

  const marks = useMemo(() => (events ? reviewMarks(events) : []), [events]);
  // the marks scroll in rows: the current one stays in sight as Previous and Next step through them
  useEffect(() => {
    marksRef.current?.querySelector('.review-mark.current')?.scrollIntoView({ block: 'nearest' });
  }, [position, marks]);
  const view = useMemo(
    () => sessionViewFromEvents(sessionId, events ? events.slice(0, position) : []),
    [events, position, sessionId],
  );

  useShortcut(
    'reviewPrevious',
    useCallback(
      () => setPosition((at) => [...marks].reverse().find((mark) => mark.position < at)?.position ?? 0),
      [marks],
    ),
  );
  useShortcut(
    'reviewNext',
    useCallback(() => setPosition((at) => marks.find((mark) => mark.position > at)?.position ?? at), [marks]),
  );

  if (!events) {
    return failure ? <FailureText failure={failure} /> : <div className="timeline-empty">{t('app.loading')}</div>;
  }
  const shownAt = events[position - 1]?.ts;
  const previous = [...marks].reverse().find((mark) => mark.position < position);
  const next = marks.find((mark) => mark.position > position);
  const showPanel = Boolean(view.plan || view.screenshots.length);
  // the end's label is the run's status, which has its translation
  const markLabel = (mark: ReviewMark) => (mark.kind === 'done' ? t(`status.${mark.label}`) : mark.label);

  return (
    <div className="review" data-testid="review">
      <div className="review-bar">
        <span className="badge">{t('review.title')}</span>
        <button
          type="button"
          className="small"
          disabled={!previous}
          onClick={() => setPosition(previous?.position ?? 0)}
          data-testid="review-prev"
        >
          ◀ {t('review.previous')}
        </button>
        <input
          type="range"
          min={0}
          max={events.length}
          value={position}
          onChange={(event) => setPosition(Number(event.target.value))}
          aria-label={t('review.position')}
          className="review-slider"
          data-testid="review-slider"
        />
        <button
          type="button"
          className="small"
          disabled={!next}
          onClick={() => setPosition(next?.position ?? events.length)}
          data-testid="review-next"
        >
          {t('review.next')} ▶
        </button>
        <span className="review-position" data-testid="review-position">
          {t('review.eventOf', { at: position, total: events.length })}
          {shownAt ? ` · ${new Date(shownAt).toLocaleTimeString(i18n.language)}` : ''}
        </span>
        <button type="button" className="small" onClick={onExit} data-testid="review-exit">
          {t('review.exit')}
        </button>
      </div>
      <ol className="review-marks" aria-label={t('review.marks')} ref={marksRef}>
        {marks.map((mark) => (
          <li key={mark.position}>
            <button
              type="button"
              className={`review-mark mark-${mark.kind} ${mark.position <= position ? 'seen' : ''} ${mark.position === position ? 'current' : ''}`}
              title={markLabel(mark)}
              aria-label={markLabel(mark)}
              onClick={() => setPosition(mark.position)}
              data-mark={mark.kind}
            >
              {MARK_ICONS[mark.kind]}
            </button>
          </li>
        ))}
      </ol>
      <div className={`review-body ${showPanel ? 'with-panel' : ''}`}>
        <div className="review-timeline">
          {view.items.length ? (
            <MessageList sessionId={`review:${sessionId}`} items={view.items} live={false} onAnswer={noAnswer} />
          ) : (
            <div className="timeline-empty">{t('review.start')}</div>
          )}
        </div>
        {showPanel ? (
          <aside className="review-panel">
            {view.plan ? <PlanPanel plan={view.plan} /> : null}
            {view.screenshots.length ? <BrowserPanel screenshots={view.screenshots} /> : null}
          </aside>
        ) : null}
      </div>
    </div>
  );
}
