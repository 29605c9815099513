import { isLiveStatus } from '../../../shared/session-vocabulary.js';
import type {
  AgentState,
  CoreEvent,
  CoreEventOf,
  FlowPhase,
  Image,
  MessageParams,
  PlanSnapshot,
  SessionInfo,
  SessionStatus,
  UsageTotals,
} from '../../../shared/events.js';
import type { ElicitationForm } from '../../../shared/elicitation-form.js';
import { kindOfRecordedTool, type ToolKind } from '../../../shared/tool-kind.js';
import type { ToolResultData } from '../../../shared/tool-result.js';
import { readStepReport } from '../../../shared/step-report.js';

/**
 * Events → what the session view shows, as pure functions: the same events always give the same view,
 * whether they arrive live, replayed after a reload, or from a saved session.
 */

export interface MessageItem {
  kind: 'message';
  key: string;
  seq: number;
  ts: number;
  role: 'user' | 'assistant' | 'system';
  agent?: string;
  text: string;
  images: Image[];
  /** workspace files the message presents (a Plan-Act step's results), or a user's message's attached files */
  attachments: string[];
  /** the flow step whose executor wrote it */
  step?: { planId: string; stepIndex: number };
  /** the last event for it was a streamed chunk */
  streaming: boolean;
  /** every event for it in this view was a streamed chunk: text from older events, loaded later, goes before it */
  onlyChunks: boolean;
}

export interface ToolItem {
  kind: 'tool';
  key: string;
  seq: number;
  ts: number;
  callId: string;
  name: string;
  /** which view shows the call (events stored before tools declared their kind: by the built-in tool's name) */
  toolKind: ToolKind;
  agent?: string;
  args: unknown;
  /** stopped: the run ended (Stop, a crash) while the call was running; no result came */
  status: 'calling' | 'done' | 'error' | 'stopped';
  output?: string;
  error?: string;
  data?: ToolResultData;
  images: Image[];
  progress: string;
  durationMs?: number;
}

export interface AskItem {
  kind: 'ask';
  key: string;
  seq: number;
  ts: number;
  askId: string;
  askKind: 'question' | 'approval' | 'elicitation';
  question: string;
  tool?: { callId: string; name: string; args: unknown };
  form?: ElicitationForm;
  status: 'waiting' | 'answered' | 'cancelled';
  answer?: string;
}

export interface ErrorItem {
  kind: 'error';
  key: string;
  seq: number;
  ts: number;
  code: string;
  message: string;
  hint?: string;
  params?: MessageParams;
}

export interface NoticeItem {
  kind: 'notice';
  key: string;
  seq: number;
  ts: number;
  level: 'info' | 'warning';
  code: string;
  text: string;
  params?: MessageParams;
}

export interface StepItem {
  kind: 'step';
  key: string;
  seq: number;
  ts: number;
  action: 'started' | 'completed' | 'failed' | 'blocked';
  stepIndex: number;
  description: string;
  agent?: string;
  result?: string;
  attachments: string[];
  error?: string;
}

export interface DoneItem {
  kind: 'done';
  key: string;
  seq: number;
  ts: number;
  status: SessionStatus;
  result: string;
  /** the result is the reply or the error just shown above it: the card then shows only the outcome */
  repeatsLastMessage: boolean;
}

export type TimelineItem = MessageItem | ToolItem | AskItem | ErrorItem | NoticeItem | StepItem | DoneItem;

export interface StepOutcome {
  result?: string;
  agent?: string;
  attachments?: string[];
  error?: string;
}

export interface PlanView {
  snapshot: PlanSnapshot;
  /** index of the step being worked on, when one is */
  currentStep?: number;
  outcomes: Record<number, StepOutcome>;
  completedSteps: number;
  totalSteps: number;
  finished: boolean;
}

export interface Screenshot {
  seq: number;
  ts: number;
  callId: string;
  url?: string;
  action?: string;
  image: Image;
}

export interface AgentActivity {
  agent: string;
  state: AgentState;
  phase: 'thinking' | 'acting' | 'idle';
  step: number;
  maxSteps: number;
}

export interface SessionView {
  sessionId: string;
  /** highest seq applied: events at or below it are already in (replay and live overlap safely) */
  lastSeq: number;
  /** lowest seq applied (0: none yet); a view opened on a window loads events before it on scroll */
  firstSeq: number;
  /** the session's first stored seq, when the view was opened on a window of its last events */
  storedFirstSeq?: number;
  session?: SessionInfo;
  title?: string;
  status?: SessionStatus;
  items: TimelineItem[];
  plan?: PlanView;
  screenshots: Screenshot[];
  activity?: AgentActivity;
  /** where a Plan-Act turn is: while its planner plans or updates the plan, the header says so */
  flowPhase?: FlowPhase;
  usage?: UsageTotals;
  /** asks still waiting for the user */
  waitingAsks: string[];
  result?: string;
  /** position in `items` of each message, tool call and ask, by its id (a Map: copied per batch, fast at 20,000 items) */
  index: Map<string, number>;
}

export function emptySessionView(sessionId: string): SessionView {
  return { sessionId, lastSeq: 0, firstSeq: 0, items: [], screenshots: [], waitingAsks: [], index: new Map() };
}

/** calls whose whole story is told elsewhere (terminate: the done card and step markers) unless they fail */
const QUIET_TOOLS = new Set(['terminate']);

function itemKey(prefix: string, id: string): string {
  return `${prefix}:${id}`;
}

/** Builds the next view from a batch; copies the touched arrays once per batch, not per event. */
export function applyEvents(view: SessionView, events: readonly CoreEvent[]): SessionView {
  const fresh = events.filter((event) => event.sessionId === view.sessionId && event.seq > view.lastSeq);
  if (fresh.length === 0) return view;
  const draft: SessionView = {
    ...view,
    items: view.items.slice(),
    screenshots: view.screenshots,
    waitingAsks: view.waitingAsks,
    index: new Map(view.index),
  };
  for (const event of fresh) {
    applyOne(draft, event);
    draft.lastSeq = Math.max(draft.lastSeq, event.seq);
    if (draft.firstSeq === 0 || event.seq < draft.firstSeq) draft.firstSeq = event.seq;
  }
  return draft;
}

/** The session row as the store has it: title and status even when its events do not say them. */
export function withSessionInfo(view: SessionView, session: SessionInfo | undefined): SessionView {
  if (!session) return view;
  return {
    ...view,
    session: view.session ?? session,
    title: view.title ?? session.title,
    status: view.status ?? session.status,
  };
}

export function sessionViewFromEvents(sessionId: string, events: readonly CoreEvent[]): SessionView {
  return applyEvents(
    emptySessionView(sessionId),
    [...events].sort((a, b) => a.seq - b.seq),
  );
}

function applyOne(draft: SessionView, event: CoreEvent): void {
  switch (event.type) {
    case 'session':
      draft.session = event.session;
      draft.status = event.session.status;
      // a run whose process died ends here: nothing is streaming or calling any more
      if (event.session.status === 'interrupted') endStreaming(draft);
      draft.title = draft.title ?? event.session.title;
      if (event.action === 'updated' || event.action === 'created') draft.title = event.session.title;
      return;
    case 'title':
      draft.title = event.title;
      return;
    case 'agent_state':
      draft.activity = {
        agent: event.agent,
        state: event.state,
        phase: event.phase,
        step: event.step,
        maxSteps: event.maxSteps,
      };
      return;
    case 'phase':
      draft.flowPhase = event.phase;
      return;
    case 'usage':
      draft.usage = event.session;
      return;
    case 'message':
      return applyMessage(draft, event);
    case 'tool':
      return applyTool(draft, event);
    case 'ask':
      return applyAsk(draft, event);
    case 'plan':
      draft.plan = planFromSnapshot(draft.plan, event.plan, event.action === 'completed');
      return;
    case 'step':
      return applyStep(draft, event);
    case 'error':
      // the countdown of a retry that was the last attempt: the error says how it ended
      if (isRetryNotice(draft.items.at(-1))) draft.items.pop();
      draft.items.push({
        kind: 'error',
        key: `error:${event.seq}`,
        seq: event.seq,
        ts: event.ts,
        code: event.code,
        message: event.message,
        hint: event.hint,
        params: event.params,
      });
      return;
    case 'notice':
      // one live retry notice per wait, not one per attempt
      if (event.code === 'retrying' && isRetryNotice(draft.items.at(-1))) draft.items.pop();
      draft.items.push({
        kind: 'notice',
        key: `notice:${event.seq}`,
        seq: event.seq,
        ts: event.ts,
        level: event.level,
        code: event.code,
        text: event.text,
        params: event.params,
      });
      return;
    case 'done':
      draft.status = event.status;
      draft.result = event.result;
      draft.items.push({
        kind: 'done',
        key: `done:${event.seq}`,
        seq: event.seq,
        ts: event.ts,
        status: event.status,
        result: event.result,
        repeatsLastMessage: repeatsWhatWasShown(draft, event.result),
      });
      endStreaming(draft);
      if (draft.activity) draft.activity = { ...draft.activity, phase: 'idle' };
      if (draft.waitingAsks.length > 0) draft.waitingAsks = [];
      return;
  }
}

function replaceItem(draft: SessionView, position: number, item: TimelineItem): void {
  draft.items[position] = item;
}

/**
 * A whole message that is a Plan-Act executor's JSON report (stored before the flow showed reports as their
 * result) reads as its result and files, like the messages written since.
 */
function shownMessage(event: CoreEventOf<'message'>): { text: string; attachments?: string[] } {
  const report = event.delta || event.role !== 'assistant' ? undefined : readStepReport(event.text);
  if (!report) return event;
  return { text: report.result, attachments: event.attachments ?? report.attachments };
}

function applyMessage(draft: SessionView, event: CoreEventOf<'message'>): void {
  const shown = shownMessage(event);
  const key = itemKey('message', event.messageId);
  const position = draft.index.get(key);
  const existing = position === undefined ? undefined : (draft.items[position] as MessageItem);
  if (!existing) {
    draft.index.set(key, draft.items.length);
    draft.items.push({
      kind: 'message',
      key,
      seq: event.seq,
      ts: event.ts,
      role: event.role,
      agent: event.agent,
      text: shown.text,
      images: event.images ?? [],
      attachments: shown.attachments ?? [],
      ...(event.step ? { step: event.step } : {}),
      streaming: event.delta,
      onlyChunks: event.delta,
    });
    return;
  }
  replaceItem(draft, position!, {
    ...existing,
    text: event.delta ? existing.text + event.text : shown.text,
    images: event.images ? [...existing.images, ...event.images] : existing.images,
    attachments: shown.attachments ?? existing.attachments,
    ...(event.step ? { step: event.step } : {}),
    streaming: event.delta,
    onlyChunks: existing.onlyChunks && event.delta,
  });
}

function applyTool(draft: SessionView, event: CoreEventOf<'tool'>): void {
  if (QUIET_TOOLS.has(event.name) && event.status !== 'error') return;
  const key = itemKey('tool', toolKeyOf(event));
  const position = draft.index.get(key);
  const existing = position === undefined ? undefined : (draft.items[position] as ToolItem);
  const base: ToolItem = existing ?? {
    kind: 'tool',
    key,
    seq: event.seq,
    ts: event.ts,
    callId: event.callId,
    name: event.name,
    toolKind: event.kind ?? kindOfRecordedTool(event.name),
    agent: event.agent,
    args: event.args,
    status: 'calling',
    images: [],
    progress: '',
  };
  const next: ToolItem = {
    ...base,
    toolKind: event.kind ?? base.toolKind,
    args: event.args ?? base.args,
    status: event.status,
    output: event.output ?? base.output,
    error: event.error ?? base.error,
    data: event.data ?? base.data,
    images: event.images ? [...base.images, ...event.images] : base.images,
    progress: event.progress ? base.progress + event.progress : base.progress,
    durationMs: event.durationMs ?? base.durationMs,
  };
  if (position === undefined) {
    draft.index.set(key, draft.items.length);
    draft.items.push(next);
  } else {
    replaceItem(draft, position, next);
  }
  if (event.images?.length && next.toolKind === 'browser') {
    const url = urlOfBrowserCall(event.args, event.data);
    const action = actionOfBrowserCall(event.args);
    draft.screenshots = [
      ...draft.screenshots,
      ...event.images.map((image) => ({ seq: event.seq, ts: event.ts, callId: event.callId, url, action, image })),
    ];
  }
}

/** The app's id of a call; events stored before it existed have only the provider's. */
export function toolKeyOf(event: Pick<CoreEventOf<'tool'>, 'callId' | 'toolId'>): string {
  return event.toolId ?? event.callId;
}

function applyAsk(draft: SessionView, event: CoreEventOf<'ask'>): void {
  const key = itemKey('ask', event.askId);
  const position = draft.index.get(key);
  const existing = position === undefined ? undefined : (draft.items[position] as AskItem);
  const next: AskItem = {
    kind: 'ask',
    key,
    seq: existing?.seq ?? event.seq,
    ts: existing?.ts ?? event.ts,
    askId: event.askId,
    askKind: event.kind,
    question: event.question || existing?.question || '',
    tool: event.tool ?? existing?.tool,
    form: event.form ?? existing?.form,
    status: event.status,
    answer: event.answer ?? existing?.answer,
  };
  if (position === undefined) {
    draft.index.set(key, draft.items.length);
    draft.items.push(next);
  } else {
    replaceItem(draft, position, next);
  }
  const others = draft.waitingAsks.filter((id) => id !== event.askId);
  draft.waitingAsks = event.status === 'waiting' ? [...others, event.askId] : others;
}

export function planFromSnapshot(previous: PlanView | undefined, snapshot: PlanSnapshot, finished: boolean): PlanView {
  const samePlan = previous?.snapshot.planId === snapshot.planId;
  const current = snapshot.steps.findIndex((step) => step.status === 'in_progress');
  return {
    snapshot,
    currentStep: current >= 0 ? current : undefined,
    outcomes: samePlan ? previous.outcomes : {},
    completedSteps: snapshot.steps.filter((step) => step.status === 'completed').length,
    totalSteps: snapshot.steps.length,
    finished: finished || (samePlan && previous.finished && current < 0),
  };
}

function applyStep(draft: SessionView, event: CoreEventOf<'step'>): void {
  draft.items.push({
    kind: 'step',
    key: `step:${event.seq}`,
    seq: event.seq,
    ts: event.ts,
    action: event.action,
    stepIndex: event.stepIndex,
    description: event.description,
    agent: event.agent,
    result: event.result,
    attachments: event.attachments ?? [],
    error: event.error,
  });
  draft.plan = planWithStep(draft.plan, event);
}

/** The plan after a step event; a step of another plan leaves it as it is. */
export function planWithStep(plan: PlanView | undefined, event: CoreEventOf<'step'>): PlanView | undefined {
  if (!plan || plan.snapshot.planId !== event.planId) return plan;
  const outcome: StepOutcome = {
    ...plan.outcomes[event.stepIndex],
    ...(event.agent ? { agent: event.agent } : {}),
    ...(event.result ? { result: event.result } : {}),
    ...(event.attachments?.length ? { attachments: event.attachments } : {}),
    ...(event.error ? { error: event.error } : {}),
  };
  const status = STEP_STATUS_OF_ACTION[event.action];
  const steps = plan.snapshot.steps.map((step, index) =>
    index === event.stepIndex ? { ...step, status, agent: event.agent ?? step.agent } : step,
  );
  const currentStep =
    event.action === 'started' ? event.stepIndex : plan.currentStep === event.stepIndex ? undefined : plan.currentStep;
  return {
    ...plan,
    snapshot: { ...plan.snapshot, steps },
    currentStep,
    outcomes: { ...plan.outcomes, [event.stepIndex]: outcome },
    completedSteps: steps.filter((step) => step.status === 'completed').length,
  };
}

const STEP_STATUS_OF_ACTION = {
  started: 'in_progress',
  completed: 'completed',
  failed: 'blocked',
  blocked: 'blocked',
} as const;

function isRetryNotice(item: TimelineItem | undefined): boolean {
  return item?.kind === 'notice' && item.code === 'retrying';
}

/** A turn's result that repeats its last reply, or the error it failed with: shown once, above. */
function repeatsWhatWasShown(draft: SessionView, result: string): boolean {
  const last = draft.items.at(-1);
  if (last?.kind === 'error' && last.message.trim() === result.trim()) return true;
  return lastAssistantText(draft)?.trim() === result.trim();
}

function lastAssistantText(draft: SessionView): string | undefined {
  for (let position = draft.items.length - 1; position >= 0; position -= 1) {
    const item = draft.items[position];
    if (item.kind === 'message' && item.role === 'assistant') return item.text;
  }
  return undefined;
}

function endStreaming(draft: SessionView): void {
  draft.items.forEach((item, position) => {
    if (item.kind === 'message' && item.streaming) replaceItem(draft, position, { ...item, streaming: false });
    if (item.kind === 'tool' && item.status === 'calling') replaceItem(draft, position, { ...item, status: 'stopped' });
  });
}

/** The address the action asked for, else the one the browser ended on (a click, a scroll). */
function urlOfBrowserCall(args: unknown, data: ToolResultData | undefined): string | undefined {
  if (args && typeof args === 'object' && 'url' in args && typeof args.url === 'string') return args.url;
  return data?.kind === 'browser' ? data.url : undefined;
}

function actionOfBrowserCall(args: unknown): string | undefined {
  return args && typeof args === 'object' && 'action' in args && typeof args.action === 'string'
    ? args.action
    : undefined;
}

/** The step marker the plan panel shows for a status. */
export const STEP_MARKERS = {
  not_started: '[ ]',
  in_progress: '[→]',
  completed: '[✓]',
  blocked: '[!]',
} as const;

/** The agent's open question (ask_human) the composer answers: the oldest one waiting. Approvals and forms answer on their cards. */
export function waitingQuestion(view: SessionView | undefined): AskItem | undefined {
  for (const askId of view?.waitingAsks ?? []) {
    const position = view!.index.get(itemKey('ask', askId));
    const item = position === undefined ? undefined : view!.items[position];
    if (item?.kind === 'ask' && item.askKind === 'question' && item.status === 'waiting') return item;
  }
  return undefined;
}

/** A live run: working, or waiting for the person's answer (it can be stopped either way). */
export function isRunning(view: SessionView | undefined): boolean {
  return isLiveStatus(view?.status);
}
