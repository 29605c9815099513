/** An agent name the flow was given is not registered. */
export class UnknownAgentError extends Error {
  readonly code = 'unknown_agent';

  constructor(names: string[], known: string[]) {
    super(`Unknown agent${names.length > 1 ? 's' : ''}: ${names.join(', ')}. Known agents: ${known.join(', ')}.`);
    this.name = 'UnknownAgentError';
  }
}

/** The Plan-Act planner kept answering with JSON that does not fit what was asked. */
export class PlannerReplyError extends Error {
  constructor(
    readonly what: string,
    readonly attempts: number,
    readonly lastError: string,
  ) {
    super(`The planner gave no valid ${what} after ${attempts} tries: ${lastError}`);
    this.name = 'PlannerReplyError';
  }
}
