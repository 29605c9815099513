import type { CoreEvent } from '../../../shared/events.js';
import type { EventOutline } from '../../../shared/contract/event-window.js';
import {
  applyEvents,
  emptySessionView,
  planFromSnapshot,
  planWithStep,
  withSessionInfo,
  type AskItem,
  type MessageItem,
  type PlanView,
  type SessionView,
  type TimelineItem,
  type ToolItem,
} from './session-view.js';

/**
 * A long session shown from a window of its last events (issue 16), with older windows joined in front as the
 * person scrolls up. Joining gives the view that applying every event in order would give.
 */

/** The plan panel as the outline's plan events leave it; no timeline items come from them. */
function planFromEvents(events: readonly CoreEvent[]): PlanView | undefined {
  let plan: PlanView | undefined;
  for (const event of events) {
    if (event.type === 'plan') plan = planFromSnapshot(plan, event.plan, event.action === 'completed');
    else if (event.type === 'step') plan = planWithStep(plan, event);
  }
  return plan;
}

/** The view of a session's last events, its plan and row taken from the outline. */
export function sessionViewFromWindow(
  sessionId: string,
  events: readonly CoreEvent[],
  outline: Pick<EventOutline, 'session' | 'firstSeq' | 'planEvents'>,
): SessionView {
  const seeded: SessionView = {
    ...emptySessionView(sessionId),
    plan: planFromEvents(outline.planEvents),
    // no events stored yet: the store numbers them from 1, and all of them will arrive live
    storedFirstSeq: outline.firstSeq || 1,
  };
  const sorted = [...events].sort((a, b) => a.seq - b.seq);
  return withSessionInfo(applyEvents(seeded, sorted), outline.session);
}

/** Events before the view's first one are stored and not loaded yet. */
export function hasOlderEvents(view: SessionView): boolean {
  return view.storedFirstSeq !== undefined && view.firstSeq > view.storedFirstSeq;
}

/** The view with events from before its first one joined in front; an empty page means there are none. */
export function prependOlderEvents(view: SessionView, olderEvents: readonly CoreEvent[]): SessionView {
  const older = olderEvents
    .filter((event) => event.seq < view.firstSeq || view.firstSeq === 0)
    .sort((a, b) => a.seq - b.seq);
  // nothing before the first event (a session whose outline was read before its first event was stored)
  if (older.length === 0) return { ...view, storedFirstSeq: view.firstSeq };
  // the page's step events land on the plan they belong to even when its plan event is in a page further back
  const seeded = { ...emptySessionView(view.sessionId), plan: view.plan && { ...view.plan, outcomes: {} } };
  return joinViews(applyEvents(seeded, older), view);
}

function joinMessage(older: MessageItem, newer: MessageItem): MessageItem {
  return {
    ...older,
    // a full (non-chunk) event replaces the text the way it does live
    text: newer.onlyChunks ? older.text + newer.text : newer.text,
    onlyChunks: older.onlyChunks && newer.onlyChunks,
    images: [...older.images, ...newer.images],
    streaming: newer.streaming,
  };
}

function joinTool(older: ToolItem, newer: ToolItem): ToolItem {
  return {
    ...older,
    toolKind: newer.toolKind,
    args: newer.args ?? older.args,
    status: newer.status,
    output: newer.output ?? older.output,
    error: newer.error ?? older.error,
    data: newer.data ?? older.data,
    images: [...older.images, ...newer.images],
    progress: older.progress + newer.progress,
    durationMs: newer.durationMs ?? older.durationMs,
  };
}

function joinAsk(older: AskItem, newer: AskItem): AskItem {
  return {
    ...newer,
    seq: older.seq,
    ts: older.ts,
    question: newer.question || older.question,
    tool: newer.tool ?? older.tool,
    form: newer.form ?? older.form,
    answer: newer.answer ?? older.answer,
  };
}

/** One item told by events on both sides of the join: it stays where its first event put it. */
function joinItem(older: TimelineItem, newer: TimelineItem): TimelineItem {
  if (older.kind === 'message' && newer.kind === 'message') return joinMessage(older, newer);
  if (older.kind === 'tool' && newer.kind === 'tool') return joinTool(older, newer);
  if (older.kind === 'ask' && newer.kind === 'ask') return joinAsk(older, newer);
  return newer;
}

/** What a `done` event later in the session does to an item still open before it. */
function endedItem(item: TimelineItem): TimelineItem {
  if (item.kind === 'message' && item.streaming) return { ...item, streaming: false };
  if (item.kind === 'tool' && item.status === 'calling') return { ...item, status: 'stopped' };
  return item;
}

function joinPlans(older: PlanView | undefined, newer: PlanView | undefined): PlanView | undefined {
  if (!newer || !older) return newer ?? older;
  if (older.snapshot.planId !== newer.snapshot.planId) return newer;
  const outcomes = { ...older.outcomes };
  for (const [index, outcome] of Object.entries(newer.outcomes))
    outcomes[Number(index)] = { ...outcomes[Number(index)], ...outcome };
  return { ...newer, outcomes };
}

function joinViews(older: SessionView, newer: SessionView): SessionView {
  const endedLater = newer.items.some((item) => item.kind === 'done');
  const items: TimelineItem[] = [];
  for (const item of older.items) {
    const laterPosition = newer.index.get(item.key);
    if (laterPosition !== undefined) items.push(joinItem(item, newer.items[laterPosition]));
    else items.push(endedLater ? endedItem(item) : item);
  }
  let lastAssistant: string | undefined;
  for (const item of items) if (item.kind === 'message' && item.role === 'assistant') lastAssistant = item.text;
  for (const item of newer.items) {
    if (older.index.has(item.key)) continue;
    if (item.kind === 'message' && item.role === 'assistant') lastAssistant = item.text;
    // the reply a done card repeats may have begun in the older events
    items.push(
      item.kind === 'done' ? { ...item, repeatsLastMessage: lastAssistant?.trim() === item.result.trim() } : item,
    );
  }
  const index = new Map<string, number>();
  items.forEach((item, position) => {
    if (item.kind === 'message' || item.kind === 'tool' || item.kind === 'ask') index.set(item.key, position);
  });
  const stillWaiting = endedLater ? [] : older.waitingAsks.filter((askId) => !newer.index.has(`ask:${askId}`));
  return {
    ...older,
    ...newer,
    session: newer.session ?? older.session,
    title: newer.title ?? older.title,
    status: newer.status ?? older.status,
    activity: newer.activity ?? older.activity,
    usage: newer.usage ?? older.usage,
    result: newer.result ?? older.result,
    firstSeq: older.firstSeq,
    lastSeq: Math.max(older.lastSeq, newer.lastSeq),
    items,
    index,
    plan: joinPlans(older.plan, newer.plan),
    screenshots: [...older.screenshots, ...newer.screenshots],
    waitingAsks: [...stillWaiting, ...newer.waitingAsks],
  };
}
