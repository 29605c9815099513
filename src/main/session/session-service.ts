import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CoreEvent, CoreEventInput, SessionInfo, SessionMode, UsageTotals } from '../../shared/events.js';
import { createAgent, type AgentCatalog } from '../agent/agent-catalog.js';
import { RunCancelledError } from '../agent/errors.js';
import { Memory } from '../agent/memory.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmConfig } from '../../shared/settings/llm-config.js';
import type { EgressNetwork } from '../browser/egress-network.js';
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
import { attachmentNote } from '../workspace/workspace-files.js';
import { resolveLlmConfig } from './llm-resolution.js';
import type { ModeCatalog } from '../flow/mode-catalog.js';
import { partsForTurn } from '../flow/mode-parts.js';
import type { RunContext, RunResult, StartTaskRequest } from '../flow/mode-runner.js';
import { createLiveSessionContext, type LiveSessionContext } from './live-session-context.js';
import { withSessionHooks } from './session-llm.js';
import { describeError } from '../flow/run-errors.js';
import { claimRun, clearRunning, recoverDeadRuns } from './run-markers.js';

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
    this.markDeadRunsInterrupted();
  }

  /** Sessions left `running` by a process that is gone (killed, crashed) are shown as interrupted. */
  private markDeadRunsInterrupted(): void {
    for (const session of recoverDeadRuns(this.store, this.options.dataDir)) {
      this.emit({ type: 'session', sessionId: session.id, action: 'status', session });
    }
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

  /** Starts a turn: a new session, or a follow-up message in an existing one. The session row exists on return. */
  start(request: StartTaskRequest, options: StartOptions = {}): { sessionId: string; done: Promise<RunResult> } {
    const settings = this.options.settings();
    const llmConfig = resolveLlmConfig(settings, request.model);
    const existing = request.sessionId ? this.requireSession(request.sessionId) : undefined;
    if (existing && this.isRunning(existing.id)) throw new Error(`Session ${existing.id} is already running.`);
    // another process running it refuses this one before anything is written
    if (existing) claimRun(this.store, this.options.dataDir, existing.id);
    const mode = request.mode ?? existing?.mode ?? 'agent';
    const session = existing
      ? this.store.updateSession(existing.id, { status: 'running', mode, model: llmConfig.model })
      : this.createSession(request, mode, llmConfig.model);
    if (!existing) claimRun(this.store, this.options.dataDir, session.id);
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
    return {
      sessionId: session.id,
      done: this.launch(session, { ...request, task, mode }, settings, llmConfig, false),
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
  resume(sessionId: string): { sessionId: string; done: Promise<RunResult> } {
    const existing = this.requireSession(sessionId);
    if (this.isRunning(sessionId)) throw new Error(`Session ${sessionId} is already running.`);
    const settings = this.options.settings();
    const llmConfig = resolveLlmConfig(settings, existing.model);
    claimRun(this.store, this.options.dataDir, sessionId);
    const session = this.store.updateSession(sessionId, { status: 'running' });
    this.emit({ type: 'session', sessionId, action: 'status', session });
    this.emit({
      type: 'notice',
      sessionId,
      level: 'info',
      code: 'resumed',
      text: 'Resuming where the session stopped.',
    });
    const task = this.lastUserMessage(sessionId) ?? session.title;
    return {
      sessionId,
      done: this.launch(session, { task, sessionId, mode: session.mode }, settings, llmConfig, true),
    };
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

  private createSession(request: StartTaskRequest, mode: SessionMode, model: string): SessionInfo {
    const id = randomUUID();
    const workspace = request.workspace ? resolve(request.workspace) : sessionWorkspaceDir(this.options.dataDir, id);
    if (request.workspace) mkdirSync(workspace, { recursive: true });
    else prepareManagedWorkspace(workspace);
    return this.store.createSession({ id, title: titleOf(request.task), mode, model, workspace, status: 'running' });
  }

  private lastUserMessage(sessionId: string): string | undefined {
    const events = this.store.listEvents(sessionId);
    for (let i = events.length - 1; i >= 0; i--) {
      const event = events[i];
      if (event.type === 'message' && event.role === 'user' && !event.delta) {
        return event.text + (event.attachments?.length ? attachmentNote(event.attachments) : '');
      }
    }
    return undefined;
  }

  private liveSession(session: SessionInfo, settings: AppSettings): LiveSession {
    // the keys this turn runs with are redacted from everything it emits
    this.redactor.remember(collectSecrets(settings));
    let live = this.live.get(session.id);
    if (!live) {
      const human = new HumanChannel(session.id, this.emit, this.options.humanAvailable ?? false);
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
    const llm = this.sessionLlm(session.id, live, llmConfig);
    live.llm = llm;
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
          emit: this.emit,
          session: live.context,
          memory,
          settings: settings.agent,
          sandboxed: settings.sandbox.mode === 'docker',
          maxSteps: options.maxSteps,
          extraTools: this.options.extraTools ? () => this.options.extraTools!(session.id) : undefined,
          gate: live.gate,
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
      (result) => this.settle(session.id, result),
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

  private sessionLlm(sessionId: string, live: LiveSession, config: LlmConfig): Llm {
    return withSessionHooks(this.options.llmFactory(config), {
      onUsage: (request, model) => {
        live.usage = addUsage(live.usage, request);
        this.store.updateSession(sessionId, { usage: live.usage });
        this.emit({ type: 'usage', sessionId, model, request, session: live.usage });
      },
      onNotice: (code, text) => this.emit({ type: 'notice', sessionId, level: 'warning', code, text }),
    });
  }

  private settle(sessionId: string, outcome: RunResult): RunResult {
    // the result goes to the caller too (the CLI prints a failure's first line), not only into events
    const result = this.redactor.deep(outcome);
    const session = this.store.updateSession(sessionId, { status: result.status });
    this.emit({ type: 'session', sessionId, action: 'status', session });
    this.emit({ type: 'done', sessionId, status: result.status, result: result.result });
    return result;
  }

  private settleError(sessionId: string, error: unknown, signal: AbortSignal): RunResult {
    if (signal.aborted || error instanceof RunCancelledError) {
      return this.settle(sessionId, { sessionId, status: 'cancelled', result: 'Cancelled by the user.' });
    }
    const described = describeError(error);
    this.emit({ type: 'error', sessionId, ...described });
    return this.settle(sessionId, { sessionId, status: 'failed', result: described.message });
  }
}

function titleOf(task: string): string {
  const firstLine = task.trim().split('\n')[0] ?? '';
  return firstLine.length > TITLE_LENGTH ? `${firstLine.slice(0, TITLE_LENGTH - 1)}…` : firstLine || 'Untitled task';
}

function addUsage(total: UsageTotals, request: UsageTotals): UsageTotals {
  const cost =
    total.cost !== undefined || request.cost !== undefined ? (total.cost ?? 0) + (request.cost ?? 0) : undefined;
  return {
    promptTokens: total.promptTokens + request.promptTokens,
    completionTokens: total.completionTokens + request.completionTokens,
    totalTokens: total.totalTokens + request.totalTokens,
    ...(cost !== undefined ? { cost } : {}),
  };
}
