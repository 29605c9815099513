import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { TimelineItem } from '../state/session-view.js';
import type { TurnEnd } from '../state/turn-end.js';
import { TimelineRow, type RowActions } from './timeline/TimelineRow.js';
import './timeline/timeline.css';

const ESTIMATED_ROW_PX = 96;
const OVERSCAN_ROWS = 8;
/** within this distance of the bottom the list follows new output */
const STICK_THRESHOLD_PX = 80;
/** within this distance of the top the page of older events is fetched, so it is in before the reader gets there */
const NEAR_TOP_PX = 3000;

/**
 * The session timeline, virtualised: only the rows on screen exist in the DOM, so 50,000 events stay smooth.
 * A long session holds its last events; scrolling near the top asks for the older ones, which join in front.
 */
export function MessageList({
  sessionId,
  items,
  live,
  onAnswer,
  turnEnd,
  onRetry,
  onResume,
  onOpenProviderSettings,
  hasOlder = false,
  onNearTop,
}: {
  sessionId: string;
  items: TimelineItem[];
  live: boolean;
  onAnswer: (askId: string, answer: string) => Promise<void>;
  /** the last turn's end when it did not finish: the way back goes on it */
  turnEnd?: TurnEnd;
  onRetry?: () => Promise<void>;
  onResume?: () => Promise<void>;
  onOpenProviderSettings?: (provider: string | undefined) => void;
  /** events before the first item are stored and not loaded yet */
  hasOlder?: boolean;
  onNearTop?: () => void;
}) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const [awayFromEnd, setAwayFromEnd] = useState(false);
  const [openCards, setOpenCards] = useState<ReadonlySet<string>>(() => new Set());
  const shownFirst = useRef<string | undefined>(undefined);

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer re-renders this list itself; no memoised child keeps its functions
  const virtualizer = useVirtualizer({
    count: items.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ESTIMATED_ROW_PX,
    overscan: OVERSCAN_ROWS,
    getItemKey: (index) => items[index]?.key ?? index,
  });

  const toggle = useCallback((key: string) => {
    setOpenCards((current) => {
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);

  const actions: RowActions = useMemo(
    () => ({
      isOpen: (key) => openCards.has(key),
      toggle,
      answer: onAnswer,
      turnEnd,
      retry: onRetry,
      resume: onResume,
      openProviderSettings: onOpenProviderSettings,
    }),
    [openCards, toggle, onAnswer, turnEnd, onRetry, onResume, onOpenProviderSettings],
  );

  const last = items.at(-1);
  const lastSize =
    last?.kind === 'message'
      ? last.text.length
      : last?.kind === 'tool'
        ? last.progress.length + (last.output?.length ?? 0)
        : 0;

  // follow the output while the reader is at the bottom; leave them alone once they scroll up
  useLayoutEffect(() => {
    if (!stickToBottom.current || items.length === 0) return;
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  }, [items.length, lastSize, virtualizer]);

  // a new session opens at its end
  useLayoutEffect(() => {
    stickToBottom.current = true;
  }, [sessionId]);

  // older items joined in front: the rows on screen stay where they were
  const firstKey = items[0]?.key;
  useLayoutEffect(() => {
    const previousFirst = shownFirst.current;
    shownFirst.current = firstKey;
    const list = scrollRef.current;
    if (!list || !previousFirst || previousFirst === firstKey || stickToBottom.current) return;
    const movedTo = items.findIndex((item) => item.key === previousFirst);
    const shift = movedTo > 0 ? virtualizer.measurementsCache[movedTo]?.start : undefined;
    if (shift) list.scrollTop += shift;
  }, [firstKey, items, virtualizer]);

  // a window shorter than the screen (or a reader already at the top) asks for more without a scroll
  useEffect(() => {
    const list = scrollRef.current;
    if (list && hasOlder && list.scrollTop < NEAR_TOP_PX) onNearTop?.();
  }, [hasOlder, items.length, onNearTop]);

  // the bench and the tests wait for this mark: the session's rows are on screen
  useEffect(() => {
    if (items.length === 0) return;
    const list = scrollRef.current;
    if (!list || list.dataset.renderedSession === sessionId) return;
    list.dataset.renderedSession = sessionId;
    performance.mark(`manus:rendered:${sessionId}`);
  }, [items.length, sessionId]);

  const onScroll = () => {
    const list = scrollRef.current;
    if (!list) return;
    stickToBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight < STICK_THRESHOLD_PX;
    if (awayFromEnd === stickToBottom.current) setAwayFromEnd(!stickToBottom.current);
    if (hasOlder && list.scrollTop < NEAR_TOP_PX) onNearTop?.();
  };

  const jumpToEnd = () => {
    stickToBottom.current = true;
    setAwayFromEnd(false);
    virtualizer.scrollToIndex(items.length - 1, { align: 'end' });
  };

  return (
    <div className="timeline-frame">
      <div
        className="timeline-scroll"
        ref={scrollRef}
        onScroll={onScroll}
        data-testid="timeline"
        data-older={hasOlder ? 'more' : 'none'}
      >
        <div className="timeline-inner" style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((row) => {
            const item = items[row.index];
            return (
              <div
                key={row.key}
                data-index={row.index}
                ref={virtualizer.measureElement}
                className="timeline-row"
                style={{ transform: `translateY(${row.start}px)` }}
              >
                <TimelineRow item={item} live={live} scrolling={virtualizer.isScrolling} actions={actions} />
              </div>
            );
          })}
        </div>
      </div>
      {awayFromEnd ? (
        <button type="button" className="jump-to-end" onClick={jumpToEnd}>
          ↓ {t('session.latest')}
        </button>
      ) : null}
    </div>
  );
}
