import { randomUUID } from 'node:crypto';
import type { CoreEventInput, Image, SessionStatus } from '../../shared/events.js';
import { RunCancelledError } from '../agent/errors.js';
import type { ToolCallAgent } from '../agent/toolcall-agent.js';
import type { RunContext } from './mode-runner.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import { type Plan, type PlanStore } from '../store/plan-store.js';
import { planSnapshot } from './plan-text.js';
import { noticeEvent, type NoticeArgs } from '../../shared/notice-codes.js';

export const PRIMARY_AGENT = 'manus';

/** The images attached to the task as a model gets them: the images for one that sees, else their descriptions. */
export interface TaskImages {
  images: Image[];
  /** text to add to the message in place of the images ('' when the model sees them, or there are none) */
  described: string;
}

/** A step agent's prompt with the descriptions of the task's images a model that cannot see reads instead. */
export function withImageDescriptions(prompt: string, seen: TaskImages): string {
  return seen.described ? `${prompt}\n${seen.described}` : prompt;
}

/** A planner's user message with the task's images as the model gets them. */
export function withTaskImages(content: string, seen: TaskImages): ChatMessage {
  const text = withImageDescriptions(content, seen);
  return { role: 'user', content: text, ...(seen.images.length ? { images: seen.images } : {}) };
}

export interface AgentDescription {
  name: string;
  description: string;
}

export interface FlowOptions {
  /** the agents that may run steps, first = default executor */
  agents: string[];
  /** independent steps run at the same time, up to this many */
  parallel: number;
  /** step runs per turn (Plan-Act: per plan) before the flow stops and summarises */
  stepLimit: number;
  /** Plan-Act: replans after failed steps before the run ends */
  maxReplans: number;
  timeoutMs: number;
  /** each step's agent budget; default: the agent's own */
  stepMaxSteps?: number;
}

export interface FlowResult {
  status: SessionStatus;
  result: string;
}

/** Why a flow stopped before its plan was done. */
export type FlowStop = 'step_limit' | 'timeout';

/** What planning flows share: the run, the plan store, the agents, the clock, and plan/step events. */
export abstract class BaseFlow {
  readonly plans: PlanStore;
  protected readonly deadline: AbortSignal;

  constructor(
    protected readonly run: RunContext,
    protected readonly options: FlowOptions,
  ) {
    this.plans = run.store.plans;
    this.deadline = AbortSignal.any([run.signal, AbortSignal.timeout(options.timeoutMs)]);
  }

  private taskImagesSeen?: Promise<TaskImages>;

  /**
   * The task's images for the planners and the step agents: the images themselves for a model that sees, else
   * their descriptions, made once per turn (each step would otherwise ask the vision model again).
   */
  protected taskImages(): Promise<TaskImages> {
    const images = this.run.request.images ?? [];
    if (images.length === 0) return Promise.resolve({ images: [], described: '' });
    this.taskImagesSeen ??= this.run
      .observeImages(images, "the person's message", this.deadline)
      .then((described) => (described ? { images: [], described } : { images, described: '' }));
    return this.taskImagesSeen;
  }

  /** Runs one turn: a new task, or (input undefined) the continuation of the session's unfinished plan. */
  abstract execute(input: string | undefined): Promise<FlowResult>;

  get sessionId(): string {
    return this.run.session.id;
  }

  /** every agent a step's `[TAG]` may name */
  get knownAgents(): readonly string[] {
    return this.run.agentNames;
  }

  get primary(): string {
    return this.options.agents.includes(PRIMARY_AGENT) ? PRIMARY_AGENT : (this.options.agents[0] ?? PRIMARY_AGENT);
  }

  /** The session's newest plan of a kind. */
  protected latestPlan(kind: Plan['kind']): Plan | undefined {
    return this.plans
      .list(this.sessionId)
      .filter((plan) => plan.kind === kind)
      .at(-1);
  }

  /** A resumed turn whose plan had already been carried out and summarised: nothing is run again. */
  protected alreadyDone(plan: Plan): FlowResult {
    this.emitNotice('info', 'nothing_to_resume', `Plan "${plan.title}" was already finished; nothing was run again.`, {
      plan: plan.title,
    });
    return { status: 'finished', result: plan.summary ?? '' };
  }

  protected describeAgents(): AgentDescription[] {
    return this.options.agents.map((name) => ({
      name,
      description: this.run.createAgent(name, { memoryKey: `flow/describe/${name}` }).description,
    }));
  }

  /**
   * A fresh agent for one run of one step: parallel steps never share a memory, and a step run again (after a
   * crash, or replaced by the planner) starts clean.
   */
  protected stepAgent(name: string, plan: Plan, index: number, emit?: (event: CoreEventInput) => void): ToolCallAgent {
    return this.run.createAgent(name, {
      maxSteps: this.options.stepMaxSteps,
      memoryKey: `flow/${plan.id}/${index}/${randomUUID()}/${name}`,
      ...(emit ? { emit } : {}),
    });
  }

  /** Throws when the person cancelled; returns the reason when the flow's own clock ran out. */
  protected stopReason(): FlowStop | undefined {
    if (this.run.signal.aborted) throw new RunCancelledError();
    return this.deadline.aborted ? 'timeout' : undefined;
  }

  protected emitPlan(action: 'created' | 'updated' | 'completed', plan: Plan): void {
    this.run.emit({ type: 'plan', sessionId: this.sessionId, action, plan: planSnapshot(plan) });
  }

  protected emitStep(
    action: 'started' | 'completed' | 'failed' | 'blocked',
    plan: Plan,
    index: number,
    extra: { agent?: string; result?: string; attachments?: string[]; error?: string } = {},
  ): void {
    this.run.emit({
      type: 'step',
      sessionId: this.sessionId,
      action,
      planId: plan.id,
      stepIndex: index,
      description: plan.steps[index]?.text ?? '',
      ...extra,
    });
  }

  protected emitNotice(level: 'info' | 'warning', ...notice: NoticeArgs): void {
    this.run.emit(noticeEvent(this.sessionId, level, ...notice));
  }

  protected say(
    text: string,
    agent: string,
    images: Image[] = [],
    extra: { messageId?: string; attachments?: string[]; step?: { planId: string; stepIndex: number } } = {},
  ): void {
    const { messageId = randomUUID(), ...shown } = extra;
    this.run.emit({
      type: 'message',
      sessionId: this.sessionId,
      messageId,
      agent,
      role: 'assistant',
      text,
      delta: false,
      ...(images.length ? { images } : {}),
      ...(shown.attachments?.length ? { attachments: shown.attachments } : {}),
      ...(shown.step ? { step: shown.step } : {}),
    });
  }
}
