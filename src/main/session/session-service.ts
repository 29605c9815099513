import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  isLiveStatus,
  type CoreEvent,
  type CoreEventInput,
  type MessageParams,
  type SessionInfo,
  type SessionMode,
  type UsageTotals,
} from '../../shared/events.js';
import { OVERRIDE_LLM_NAME } from '../config/llm-overrides.js';
import { createAgent, type AgentCatalog } from '../agent/agent-catalog.js';
import { RunCancelledError } from '../agent/errors.js';
import { isLlmError } from '../llm/errors.js';
import { Memory } from '../agent/memory.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmConfig } from '../../shared/settings/llm-config.js';
import type { EgressNetwork } from '../net/egress-network.js';
import { EventBus, type EventListener } from './event-bus.js';
import type { Llm } from '../llm/types.js';
import type { SessionStore } from '../store/store-api.js';
import { sessionWorkspaceDir } from '../store/data-dir.js';
import { prepareManagedWorkspace } from '../sandbox/workspace-owner.js';
import { SecretRedactor } from '../store/redact.js';
import { collectSecrets } from '../store/settings-secrets.js';
import { createApprovalGate } from '../approval/approval-gate.js';
import type { ToolGate } from '../tool/tool-gate.js';
import type { SessionContext } from '../tool/session-context.js';
import type { AnyTool } from '../tool/tool.js';
import { HumanChannel } from '../human/human-channel.js';
import { providerOfModel, resolveLlmConfig, resolveLlmName, resolveVisionLlmConfig } from './llm-resolution.js';
import {
  createImageObserver,
  noVisionModel,
  unusableVisionModel,
  type ImageSight,
} from '../agent/image-observation.js';
import { createImageDescriber } from '../llm/image-description.js';
import { attachmentNote } from '../workspace/workspace-files.js';
import { DEFAULT_EVENT_WINDOW } from '../../shared/contract/event-window-size.js';
import { imagesAmong } from '../flow/attached-images.js';
import type { ModeCatalog } from '../flow/mode-catalog.js';
import { partsForTurn } from '../flow/mode-parts.js';
import { checkAgents } from '../flow/flow-modes.js';
import type { RunContext, RunResult, StartTaskRequest } from '../flow/mode-runner.js';
import { createLiveSessionContext, type LiveSessionContext } from './live-session-context.js';
import { withSessionHooks } from './session-llm.js';
import { describeError } from '../flow/run-errors.js';
import { claimRun, clearRunning, isDeadRun, recoverDeadRuns } from './run-markers.js';
import { TokenBudget, TokenBudgetExceededError } from './token-budget.js';
import { addUsage } from '../llm/usage.js';
import { noticeEvent } from '../../shared/notice-codes.js';

export type { RunResult, StartTaskRequest } from '../flow/mode-runner.js';

/** a cancelled run must settle within this; after it the session is marked cancelled anyway */
const CANCEL_GRACE_MS = 1000;
const TITLE_LENGTH = 80;

export interface SessionServiceOptions {
  store: SessionStore;
  dataDir: string;
  /** the settings to run with, read at the start of every turn */
  settings: () => AppSettings;
  /** the agents sessions and flows may run, by name */
  agents: AgentCatalog;
  /** how each mode (agent, planning, plan_act) runs a turn */
  modes: ModeCatalog;
  /** builds the model client for a config (the openai-SDK client unless a host swaps it) */
  llmFactory: (config: LlmConfig) => Llm;
  /** whether someone can answer `ask` events (a TTY, a window) */
  humanAvailable?: boolean;
  /** tools that come and go at run time, such as MCP servers' tools */
  extraTools?: (sessionId: string) => AnyTool[];
  /** a resolver or connector for sessions' browser egress guards instead of the system's (tests give names addresses) */
  egressNetwork?: Partial<EgressNetwork>;
  /** the person chose "always allow" for a tool in an approval prompt: save it in the settings */
  rememberAlwaysAllow?: (toolName: string) => void;
  /** per-session setup when a session becomes live (e.g. start MCP connections) */
  onSessionLive?: (session: SessionContext) => void;
  /** per-session teardown when a live session is released (e.g. close its MCP connections) */
  onSessionReleased?: (sessionId: string) => Promise<void>;
  /** start the parts a turn will need (sandbox, browser) with the turn, not at its first tool call (default: true) */
  warmUpParts?: boolean;
  /** awaited before each turn runs (e.g. MCP servers connected or failed); may emit notices */
  prepareRun?: (run: { session: SessionContext; emit: (event: CoreEventInput) => void }) => Promise<void>;
}

export interface StartOptions {
  /** puts the message's attached files into the session's workspace (it exists by then); returns their paths in it */
  attach?: (workspace: string) => string[];
}

interface LiveSession {
  context: LiveSessionContext;
  /** the settings and model of the current turn, which the context hands out */
  settings: AppSettings;
  llm?: Llm;
  /** the configured provider the current turn runs on, named in its errors so the UI can open its settings */
  provider?: string;
  human: HumanChannel;
  gate: ToolGate;
  usage: UsageTotals;
  abort?: AbortController;
  running?: Promise<RunResult>;
}

export class SessionService {
  private readonly bus: EventBus;
  /** knows the environment's secrets from the start and each turn's settings secrets as it begins */
  private readonly redactor = new SecretRedactor();
  private readonly live = new Map<string, LiveSession>();

  constructor(private readonly options: SessionServiceOptions) {
    this.bus = new EventBus(options.store, this.redactor);
    // sessions left `running` by a process that is gone (killed, crashed) are shown as interrupted
    recoverDeadRuns(this.store, this.options.dataDir);
  }

  /**
   * The session as stored, unless it says running while no live process runs it (this process restarted, or the
   * other process running it died since this one started): then it is marked interrupted now, so it can be resumed.
   */
  withLiveStatus(session: SessionInfo): SessionInfo {
    if (!isDeadRun(this.options.dataDir, session, this.isRunning(session.id))) return session;
    clearRunning(this.options.dataDir, session.id);
    const interrupted = this.store.updateSession(session.id, { status: 'interrupted' });
    this.emit({ type: 'session', sessionId: session.id, action: 'status', session: interrupted });
    return interrupted;
  }

  get store(): SessionStore {
    return this.options.store;
  }

  emit = (event: CoreEventInput): CoreEvent => this.bus.emit(event);

  subscribe(listener: EventListener, sessionId?: string): () => void {
    return this.bus.subscribe(listener, sessionId);
  }

  isRunning(sessionId: string): boolean {
    return Boolean(this.live.get(sessionId)?.running);
  }

  runningSessionIds(): string[] {
    return [...this.live.entries()].filter(([, live]) => live.running).map(([id]) => id);
  }

  /** The agents a flow's steps may run on, by name. */
  agentNames(): string[] {
    return Object.keys(this.options.agents);
  }

  /** Starts a turn: a new session, or a follow-up message in an existing one. The session row exists on return. */
  start(request: StartTaskRequest, options: StartOptions = {}): { sessionId: string; done: Promise<RunResult> } {
    const settings = this.options.settings();
    const llmConfig = resolveLlmConfig(settings, request.model);
    const existing = request.sessionId ? this.requireSession(request.sessionId) : undefined;
    if (existing && this.isRunning(existing.id)) throw new Error(`Session ${existing.id} is already running.`);
    // unknown agents are refused before anything is written; the choices last until the person changes them
    const choices = {
      mode: request.mode ?? existing?.mode ?? 'agent',
      agents: request.agents ? checkAgents(request.agents, this.agentNames()) : existing?.agents,
      parallel: request.parallel ?? existing?.parallel,
    };
    // claimed before anything is written: another process running it refuses this one, and no process ever sees a
    // session stored as running that no live process holds (it would show it interrupted)
    const sessionId = existing?.id ?? randomUUID();
    claimRun(this.store, this.options.dataDir, sessionId);
    let session: SessionInfo;
    try {
      session = existing
        ? this.store.updateSession(existing.id, { status: 'running', model: llmConfig.model, ...choices })
        : this.createSession(sessionId, request, choices, llmConfig.model);
    } catch (error) {
      clearRunning(this.options.dataDir, sessionId);
      throw error;
    }
    this.emit({ type: 'session', sessionId: session.id, action: existing ? 'status' : 'created', session });
    const attachments = this.attachFiles(session, options);
    // the bubble shows what the person wrote and the files as chips; the model is also told where the files are
    this.emit({
      type: 'message',
      sessionId: session.id,
      messageId: randomUUID(),
      role: 'user',
      text: request.task,
      delta: false,
      ...(attachments.length ? { attachments } : {}),
    });
    const task = request.task + (attachments.length ? attachmentNote(attachments) : '');
    // attached pictures go with the task, named where the model finds them: shown to a model that sees, described
    // for one that does not
    const images =
      request.images ??
      imagesAmong(attachments, session.workspace).map((image) => ({ ...image, path: `/workspace/${image.path}` }));
    return {
      sessionId: session.id,
      done: this.launch(
        session,
        { ...request, ...choices, task, ...(images.length ? { images } : {}) },
        settings,
        llmConfig,
        false,
      ),
    };
  }

  /** A turn whose files could not be put in place ends there, failed with the reason, instead of staying running. */
  private attachFiles(session: SessionInfo, options: StartOptions): string[] {
    try {
      return options.attach?.(session.workspace) ?? [];
    } catch (error) {
      clearRunning(this.options.dataDir, session.id);
      this.settleError(session.id, error, new AbortController().signal);
      throw error;
    }
  }

  /** Continues an interrupted (or cancelled, or failed) session from where it stopped. */
  resume(
    sessionId: string,
    options: Pick<StartTaskRequest, 'maxTotalTokens'> = {},
  ): { sessionId: string; done: Promise<RunResult> } {
    const existing = this.requireSession(sessionId);
    if (this.isRunning(sessionId)) throw new Error(`Session ${sessionId} is already running.`);
    const settings = this.options.settings();
    const llmConfig = resolveLlmConfig(settings, existing.model);
    claimRun(this.store, this.options.dataDir, sessionId);
    const session = this.store.updateSession(sessionId, { status: 'running' });
    this.emit({ type: 'session', sessionId, action: 'status', session });
    this.emit(noticeEvent(sessionId, 'info', 'resumed', 'Resuming where the session stopped.'));
    const task = this.lastUserMessage(sessionId) ?? session.title;
    return {
      sessionId,
      done: this.launch(
        session,
        { ...options, task, sessionId, mode: session.mode, agents: session.agents, parallel: session.parallel },
        settings,
        llmConfig,
        true,
      ),
    };
  }

  /**
   * Sends the session's last message again in its mode, on the provider that runs its model (its attachments are in
   * its workspace already): the settings are read again, so a key fixed since the failure is used.
   */
  retry(sessionId: string): { sessionId: string; done: Promise<RunResult> } {
    const existing = this.requireSession(sessionId);
    const turn = this.lastUserTurn(sessionId);
    if (turn === undefined) throw new Error(`Session ${sessionId} has no message to send again.`);
    const model = providerOfModel(this.options.settings(), existing.model);
    // the same bubble again (text and file chips); the files are where the first send put them
    return this.start(
      { task: turn.text, sessionId, mode: existing.mode, ...(model ? { model } : {}) },
      { attach: () => turn.attachments },
    );
  }

  /** Stops a running turn; returns once the run has settled (at most about a second). */
  async cancel(sessionId: string): Promise<void> {
    const live = this.live.get(sessionId);
    if (!live?.running || !live.abort) return;
    live.abort.abort(new RunCancelledError());
    await Promise.race([
      live.running.catch(() => undefined),
      new Promise((r) => setTimeout(r, CANCEL_GRACE_MS).unref()),
    ]);
  }

  /** Renames a session; the event tells every open window (header, lists) at once. */
  rename(sessionId: string, title: string): SessionInfo {
    this.requireSession(sessionId);
    const session = this.store.updateSession(sessionId, { title });
    this.emit({ type: 'session', sessionId, action: 'updated', session });
    return session;
  }

  answer(sessionId: string, askId: string, answer: string): boolean {
    return this.live.get(sessionId)?.human.answer(askId, answer) ?? false;
  }

  /** Releases a session's live resources (sandbox, browser...), e.g. before deleting it. */
  async release(sessionId: string): Promise<void> {
    const live = this.live.get(sessionId);
    if (!live) return;
    await this.cancel(sessionId);
    this.live.delete(sessionId);
    await Promise.all([live.context.release(), this.options.onSessionReleased?.(sessionId)]);
  }

  async close(): Promise<void> {
    await Promise.all([...this.live.keys()].map((id) => this.release(id)));
  }

  private requireSession(sessionId: string): SessionInfo {
    const session = this.store.getSession(sessionId);
    if (!session) throw new Error(`No session with id ${sessionId}.`);
    return session;
  }

  private createSession(
    id: string,
    request: StartTaskRequest,
    choices: { mode: SessionMode; agents?: string[]; parallel?: number },
    model: string,
  ): SessionInfo {
    const workspace = request.workspace ? resolve(request.workspace) : sessionWorkspaceDir(this.options.dataDir, id);
    if (request.workspace) mkdirSync(workspace, { recursive: true });
    else prepareManagedWorkspace(workspace);
    return this.store.createSession({
      id,
      title: titleOf(request.task),
      model,
      workspace,
      status: 'running',
      ...choices,
    });
  }

  /** A live run's question to the person waits for an answer (`waiting`), or the last one was answered (`running`). */
  private markWaiting(sessionId: string, waiting: boolean): void {
    const current = this.store.getSession(sessionId);
    // a run that already settled keeps its final status
    if (!current || !isLiveStatus(current.status)) return;
    const session = this.store.updateSession(sessionId, { status: waiting ? 'waiting' : 'running' });
    this.emit({ type: 'session', sessionId, action: 'status', session });
  }

  /** The person's last message as the model reads it: its text, and where its attached files are. */
  private lastUserMessage(sessionId: string): string | undefined {
    const turn = this.lastUserTurn(sessionId);
    return turn && turn.text + (turn.attachments.length ? attachmentNote(turn.attachments) : '');
  }

  private lastUserTurn(sessionId: string): { text: string; attachments: string[] } | undefined {
    // read back from the end a window at a time: a long session's whole history is not read to find its last turn
    let beforeSeq: number | undefined;
    for (;;) {
      const events = this.store.listEventsBefore(sessionId, { beforeSeq, limit: DEFAULT_EVENT_WINDOW });
      for (let i = events.length - 1; i >= 0; i--) {
        const event = events[i];
        if (event.type === 'message' && event.role === 'user' && !event.delta) {
          return { text: event.text, attachments: event.attachments ?? [] };
        }
      }
      if (events.length < DEFAULT_EVENT_WINDOW) return undefined;
      beforeSeq = events[0].seq;
    }
  }

  private liveSession(session: SessionInfo, settings: AppSettings): LiveSession {
    // the keys this turn runs with are redacted from everything it emits
    this.redactor.remember(collectSecrets(settings));
    let live = this.live.get(session.id);
    if (!live) {
      const human = new HumanChannel(session.id, this.emit, this.options.humanAvailable ?? false, (waiting) =>
        this.markWaiting(session.id, waiting),
      );
      const gate = createApprovalGate({
        settings: () => this.options.settings(),
        human,
        rememberAlwaysAllow: this.options.rememberAlwaysAllow,
      });
      const created: LiveSession = {
        context: createLiveSessionContext({
          sessionId: session.id,
          workspace: session.workspace,
          dataDir: this.options.dataDir,
          knowledge: this.options.store.knowledge,
          settings: () => created.settings,
          llm: () => created.llm,
          human,
          gate,
          emit: this.emit,
          ...(this.options.egressNetwork ? { egressNetwork: this.options.egressNetwork } : {}),
        }),
        settings,
        human,
        gate,
        usage: { ...session.usage },
      };
      live = created;
      this.live.set(session.id, live);
      this.options.onSessionLive?.(live.context);
    }
    live.settings = settings;
    return live;
  }

  private launch(
    session: SessionInfo,
    request: StartTaskRequest,
    settings: AppSettings,
    llmConfig: LlmConfig,
    resuming: boolean,
  ): Promise<RunResult> {
    const live = this.liveSession(session, settings);
    const abort = new AbortController();
    live.abort = abort;
    const budget = new TokenBudget(
      { run: request.maxTotalTokens, session: settings.agent.maxTotalTokens },
      live.usage.totalTokens,
    );
    const llm = this.sessionLlm(session.id, live, llmConfig, { budget, abort });
    live.llm = llm;
    live.provider = resolveLlmName(settings, request.model ?? session.model);
    const sight = this.imageSight(session.id, live, settings, llm, { budget, abort });
    const context: RunContext = {
      session,
      request,
      resuming,
      store: this.store,
      emit: this.emit,
      signal: abort.signal,
      settings,
      sessionContext: live.context,
      llm,
      // a model that sees gets the images themselves: the observer answers '' without looking at its sight
      observeImages: createImageObserver({
        llm,
        sight: sight ?? noVisionModel(llm.model),
        sessionId: session.id,
        emit: this.emit,
      }),
      agentNames: Object.keys(this.options.agents),
      createAgent: (name, options = {}) => {
        const memoryKey = options.memoryKey ?? name;
        const memory = new Memory(this.store.loadMemory(session.id, memoryKey), settings.agent.maxMessages, (added) =>
          this.store.appendMemory(session.id, memoryKey, added),
        );
        return createAgent(this.options.agents, name, {
          sessionId: session.id,
          workspace: session.workspace,
          llm,
          emit: options.emit ?? this.emit,
          session: live.context,
          memory,
          settings: settings.agent,
          sandboxed: settings.sandbox.mode === 'docker',
          maxSteps: options.maxSteps,
          extraTools: this.options.extraTools ? () => this.options.extraTools!(session.id) : undefined,
          gate: live.gate,
          sight,
        });
      },
    };
    // side by side with the first model call; what the turn did not use is undone when it ends
    const warmUp = this.options.warmUpParts === false ? undefined : live.context.warmUp(partsForTurn(request));
    const runner = this.options.modes[request.mode ?? 'agent'];
    const running = (async (): Promise<RunResult> => {
      if (!runner) throw new Error(`The ${request.mode} mode is not available in this build.`);
      await this.options.prepareRun?.({ session: live.context, emit: this.emit });
      return { sessionId: session.id, ...(await runner(context)) };
    })().then(
      // a mode that went on after its model refused a call still ends as out of budget
      (result) =>
        abort.signal.reason instanceof TokenBudgetExceededError
          ? this.settleError(session.id, abort.signal.reason, abort.signal)
          : this.settle(session.id, result),
      (error: unknown) => this.settleError(session.id, error, abort.signal),
    );
    live.running = running;
    void running.finally(() => {
      void warmUp?.settle().catch(() => undefined);
      clearRunning(this.options.dataDir, session.id);
      if (live.running === running) {
        live.running = undefined;
        live.abort = undefined;
      }
    });
    return running;
  }

  /** The turn's model: its usage is the session's, and once the budget is spent it refuses calls and stops the run. */
  private sessionLlm(
    sessionId: string,
    live: LiveSession,
    config: LlmConfig,
    run: { budget: TokenBudget; abort: AbortController },
  ): Llm {
    return withSessionHooks(this.options.llmFactory(config), {
      beforeRequest: () => {
        const exceeded = run.budget.exceeded();
        if (!exceeded) return;
        // the whole run stops (a flow's other steps too), as on a cancel, and settles as out of budget
        run.abort.abort(exceeded);
        throw exceeded;
      },
      onUsage: (request, model) => {
        run.budget.add(request);
        live.usage = addUsage(live.usage, request);
        this.store.updateSession(sessionId, { usage: live.usage });
        this.emit({ type: 'usage', sessionId, model, request, session: live.usage });
      },
      onNotice: (...notice) => this.emit(noticeEvent(sessionId, 'warning', ...notice)),
    });
  }

  /** For a turn whose model cannot see: the vision model of the settings that describes its images, if any. */
  private imageSight(
    sessionId: string,
    live: LiveSession,
    settings: AppSettings,
    llm: Llm,
    run: { budget: TokenBudget; abort: AbortController },
  ): ImageSight | undefined {
    if (llm.supportsVision) return undefined;
    const vision = resolveVisionLlmConfig(settings);
    if (!vision) return noVisionModel(llm.model);
    // its calls are the run's calls: they count against the same budget
    const visionLlm = this.sessionLlm(sessionId, live, vision.config, run);
    if (!visionLlm.supportsVision) {
      return unusableVisionModel(
        llm.model,
        `the vision model "${vision.name}" (${visionLlm.model}) does not take images`,
        vision.name,
      );
    }
    const describer = createImageDescriber(visionLlm, { timeoutMs: vision.config.requestTimeoutMs });
    return { kind: 'describer', describer };
  }

  private settle(sessionId: string, outcome: RunResult): RunResult {
    // the result goes to the caller too (the CLI prints a failure's first line), not only into events
    const result = this.redactor.deep(outcome);
    const session = this.store.updateSession(sessionId, { status: result.status });
    this.emit({ type: 'session', sessionId, action: 'status', session });
    this.emit({ type: 'done', sessionId, status: result.status, result: result.result });
    return result;
  }

  /** Which settings a model error points at: a saved provider by name, or the MANUS_LLM_* environment. */
  private providerParams(sessionId: string): MessageParams {
    const provider = this.live.get(sessionId)?.provider;
    if (!provider) return {};
    return provider === OVERRIDE_LLM_NAME ? { configuredBy: 'environment' } : { provider };
  }

  private settleError(sessionId: string, error: unknown, signal: AbortSignal): RunResult {
    if (signal.reason instanceof TokenBudgetExceededError) {
      this.emit({ type: 'error', sessionId, ...describeError(signal.reason) });
      return this.settle(sessionId, { sessionId, status: 'failed', result: signal.reason.message });
    }
    if (signal.aborted || error instanceof RunCancelledError) {
      return this.settle(sessionId, { sessionId, status: 'cancelled', result: 'Cancelled by the user.' });
    }
    const described = describeError(error);
    const params = isLlmError(error) ? { ...described.params, ...this.providerParams(sessionId) } : described.params;
    this.emit({ type: 'error', sessionId, ...described, ...(params ? { params } : {}) });
    return this.settle(sessionId, { sessionId, status: 'failed', result: described.message });
  }
}

function titleOf(task: string): string {
  const firstLine = task.trim().split('\n')[0] ?? '';
  return firstLine.length > TITLE_LENGTH ? `${firstLine.slice(0, TITLE_LENGTH - 1)}…` : firstLine || 'Untitled task';
}
