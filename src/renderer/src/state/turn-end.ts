import type { DoneItem, SessionView, TimelineItem } from './session-view.js';

/** The statuses a turn can end in that leave the person something to do: send it again, or continue it. */
const UNFINISHED = new Set(['failed', 'cancelled', 'interrupted']);

/** The last turn's end when it did not finish, with what the person can do from there. */
export interface TurnEnd {
  /** the done item the buttons go on */
  key: string;
  status: DoneItem['status'];
  /** a stopped or interrupted run continues from its memory; a failed one when its plan has steps left */
  canResume: boolean;
}

/**
 * The timeline with its last turn's end: a run whose process died has no `done` event, so its end is added here (the
 * same events always give the same timeline, live or reloaded).
 */
export function withTurnEnd(view: SessionView): { items: TimelineItem[]; end?: TurnEnd } {
  const status = view.status;
  if (!status || !UNFINISHED.has(status) || view.items.length === 0) return { items: view.items };
  const canResume = status !== 'failed' || Boolean(view.plan && !view.plan.finished);
  const done = lastTurnsDone(view.items);
  if (done?.status === status) return { items: view.items, end: { key: done.key, status, canResume } };
  const last = view.items.at(-1)!;
  const added: DoneItem = {
    kind: 'done',
    key: `end:${view.lastSeq}`,
    seq: view.lastSeq,
    ts: last.ts,
    status,
    result: '',
    repeatsLastMessage: true,
  };
  return { items: [...view.items, added], end: { key: added.key, status, canResume } };
}

/** The `done` item of the last turn (a notice may come after it; a new message starts another turn). */
function lastTurnsDone(items: readonly TimelineItem[]): DoneItem | undefined {
  for (let position = items.length - 1; position >= 0; position -= 1) {
    const item = items[position]!;
    if (item.kind === 'done') return item;
    if (item.kind === 'message' && item.role === 'user') return undefined;
  }
  return undefined;
}
