import type { CoreEventInput, Image, SessionInfo, SessionMode, SessionStatus } from '../../shared/events.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { Llm } from '../llm/types.js';
import type { SessionStore } from '../store/store-api.js';
import type { ToolCallAgent } from '../agent/toolcall-agent.js';
import type { ImageObserver } from '../agent/image-observation.js';
import type { SessionContext } from '../tool/session-context.js';

export interface StartTaskRequest {
  task: string;
  /** images the person attached to the task, shown to the model with it (or described for one that cannot see) */
  images?: Image[];
  /** a follow-up message in an existing session */
  sessionId?: string;
  mode?: SessionMode;
  /** flows: which agents may be used */
  agents?: string[];
  /** a folder the person chose; default: the session's own folder under the data folder */
  workspace?: string;
  /** a configured provider's name or a model id */
  model?: string;
  maxSteps?: number;
  /** this run's token budget: prompt + completion tokens of all its model calls, as the provider reports them */
  maxTotalTokens?: number;
  /** flows: run independent plan steps at the same time */
  parallel?: number;
  /** flows: this turn's step runs at most (default: `planning.maxStepRuns` / `planAct.maxStepsPerPlan`) */
  maxStepRuns?: number;
  /** flows: this turn's minutes at most (default: `planning.timeoutMinutes` / `planAct.timeoutMinutes`) */
  timeoutMinutes?: number;
}

export interface RunResult {
  sessionId: string;
  status: SessionStatus;
  result: string;
}

/** Everything a mode (agent, planning flow, plan-act) needs to run one turn of a session. */
export interface RunContext {
  session: SessionInfo;
  request: StartTaskRequest;
  /** true when continuing an interrupted run rather than answering a new message */
  resuming: boolean;
  store: SessionStore;
  emit: (event: CoreEventInput) => void;
  signal: AbortSignal;
  settings: AppSettings;
  /** the session's parts (sandbox, browser, human channel...), the same for every turn */
  sessionContext: SessionContext;
  llm: Llm;
  /** what the turn's model reads in place of images it cannot see (described by the vision model, or a note) */
  observeImages: ImageObserver;
  /** every agent the core can run (flows check their agents and steps' `[TAG]`s against these) */
  agentNames: readonly string[];
  /**
   * An agent of this session, with its memory loaded from the store and persisted as it grows; `emit` sees its
   * events before the session does (a flow tags a step's messages).
   */
  createAgent(
    name: string,
    options?: { maxSteps?: number; memoryKey?: string; emit?: (event: CoreEventInput) => void },
  ): ToolCallAgent;
}

export type ModeRunner = (run: RunContext) => Promise<{ status: SessionStatus; result: string }>;
