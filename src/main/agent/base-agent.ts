import type { AgentState, CoreEventInput, Image } from '../../shared/events.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import type { Llm } from '../llm/types.js';
import type { SessionContext } from '../tool/session-context.js';
import type { ImageSight } from './image-observation.js';
import { Memory } from './memory.js';
import { isStuck, MAX_STUCK_NUDGES, STUCK_NUDGE } from './stuck-detector.js';
import { RunCancelledError, throwIfCancelled } from './errors.js';
import { noticeEvent } from '../../shared/notice-codes.js';

export const DEFAULT_MAX_STEPS = 10;

/** How a run ended: success/failure as the agent said (terminate), or why it was stopped. */
export type AgentOutcome = 'success' | 'failure' | 'max_steps' | 'stuck';

export interface AgentRunResult {
  outcome: AgentOutcome;
  /** the agent's final answer, or the reason it stopped */
  text: string;
  steps: number;
}

export interface AgentDeps {
  sessionId: string;
  workspace: string;
  llm: Llm;
  emit: (event: CoreEventInput) => void;
  session: SessionContext;
  memory?: Memory;
  maxSteps?: number;
  /** how images reach the model when it cannot see them (default: left out, with a note) */
  sight?: ImageSight;
}

export interface RunOptions {
  signal?: AbortSignal;
  /** a fresh step budget for this run (flows give each plan step its own) */
  maxSteps?: number;
  /** images that come with the request (the person attached them) */
  images?: Image[];
}

/** The think/act loop's frame: state, step budget, stuck detection and the memory. */
export abstract class BaseAgent {
  abstract readonly name: string;
  abstract readonly description: string;
  state: AgentState = 'IDLE';
  currentStep = 0;
  maxSteps: number;
  readonly memory: Memory;
  protected nextStepNudge = '';
  protected finishedWith: { outcome: AgentOutcome; text: string } | undefined;
  private stuckNudges = 0;

  constructor(protected readonly deps: AgentDeps) {
    this.memory = deps.memory ?? new Memory();
    this.maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  }

  get llm(): Llm {
    return this.deps.llm;
  }

  /** One think/act step; returns a one-line summary of what it did. */
  protected abstract step(signal: AbortSignal): Promise<string>;

  async run(request: string | undefined, options: RunOptions = {}): Promise<AgentRunResult> {
    if (this.state === 'RUNNING') throw new Error(`Agent ${this.name} is already running.`);
    const signal = options.signal ?? new AbortController().signal;
    const maxSteps = options.maxSteps ?? this.maxSteps;
    this.currentStep = 0;
    this.finishedWith = undefined;
    this.stuckNudges = 0;
    this.nextStepNudge = '';
    this.setState('RUNNING', 'thinking');
    try {
      if (request !== undefined) this.memory.add(await this.requestMessage(request, options.images ?? [], signal));
      while (this.currentStep < maxSteps && !this.finishedWith) {
        throwIfCancelled(signal);
        this.currentStep++;
        await this.step(signal);
        if (!this.finishedWith) this.checkStuck();
      }
      const finished = this.finishedWith as { outcome: AgentOutcome; text: string } | undefined;
      const result: AgentRunResult = finished
        ? { ...finished, steps: this.currentStep }
        : {
            outcome: 'max_steps',
            text: `Stopped: reached the step limit (${maxSteps} steps) before the task was finished.`,
            steps: this.currentStep,
          };
      this.setState(result.outcome === 'success' ? 'FINISHED' : 'IDLE', 'idle');
      return result;
    } catch (error) {
      if (signal.aborted) {
        this.setState('IDLE', 'idle');
        throw error instanceof RunCancelledError ? error : new RunCancelledError();
      }
      this.setState('ERROR', 'idle');
      throw error;
    }
  }

  /** The person's request as it enters memory, with the images attached to it. */
  protected async requestMessage(request: string, images: Image[], _signal: AbortSignal): Promise<ChatMessage> {
    return { role: 'user', content: request, ...(images.length ? { images } : {}) };
  }

  protected finish(outcome: AgentOutcome, text: string): void {
    this.finishedWith = { outcome, text };
  }

  protected setState(state: AgentState, phase: 'thinking' | 'acting' | 'idle'): void {
    this.state = state;
    this.deps.emit({
      type: 'agent_state',
      sessionId: this.deps.sessionId,
      agent: this.name,
      state,
      phase,
      step: this.currentStep,
      maxSteps: Math.max(1, this.maxSteps),
    });
  }

  private checkStuck(): void {
    if (!isStuck(this.memory.messages)) return;
    if (this.stuckNudges >= MAX_STUCK_NUDGES) {
      this.finish('stuck', 'Stopped: the agent kept giving the same reply after being asked to change its approach.');
      return;
    }
    this.stuckNudges++;
    this.nextStepNudge = STUCK_NUDGE;
    this.deps.emit(
      noticeEvent(
        this.deps.sessionId,
        'warning',
        'agent_stuck',
        `${this.name} repeated itself; asked it to try another way.`,
        {
          agent: this.name,
        },
      ),
    );
  }
}
