import type { MessageParams } from '../../shared/events.js';

/** An agent name the flow was given is not registered. */
export class UnknownAgentError extends Error {
  readonly code = 'unknown_agent';
  /** what the renderer's translation fills in */
  readonly params: MessageParams;

  constructor(names: string[], known: string[]) {
    super(`Unknown agent${names.length > 1 ? 's' : ''}: ${names.join(', ')}. Known agents: ${known.join(', ')}.`);
    this.name = 'UnknownAgentError';
    this.params = { agents: names.join(', '), known: known.join(', ') };
  }
}

/** The Plan-Act planner kept answering with JSON that does not fit what was asked. */
export class PlannerReplyError extends Error {
  readonly code = 'planner_invalid';

  constructor(
    readonly what: string,
    readonly attempts: number,
    readonly lastError: string,
  ) {
    super(`The planner gave no valid ${what} after ${attempts} tries: ${lastError}`);
    this.name = 'PlannerReplyError';
  }

  /** what the renderer's translation fills in */
  get params(): MessageParams {
    return { attempts: this.attempts };
  }
}
