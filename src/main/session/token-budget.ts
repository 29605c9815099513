import type { MessageParams, UsageTotals } from '../../shared/events.js';

/** The code of the error a run stops with when it used up its tokens (the renderer translates it). */
export const TOKEN_BUDGET_CODE = 'token_budget_exceeded';

/** Token limits of one run: its own (`--max-tokens`) and its session's over all its runs (`agent.maxTotalTokens`). */
export interface TokenLimits {
  run?: number;
  session?: number;
}

export type TokenBudgetScope = keyof TokenLimits;

const FIX_BY_SCOPE: Record<TokenBudgetScope, string> = {
  run: 'resume it with a larger --max-tokens to go on',
  session: 'raise agent.maxTotalTokens (or unset it) and resume the session to go on',
};

/** A run used the tokens it was allowed; it stops before its next model call. */
export class TokenBudgetExceededError extends Error {
  readonly code = TOKEN_BUDGET_CODE;

  constructor(
    readonly scope: TokenBudgetScope,
    readonly used: number,
    readonly limit: number,
  ) {
    const what = scope === 'run' ? 'this run' : 'this session';
    super(
      `Stopped: ${what} used ${used.toLocaleString('en')} tokens, its budget is ${limit.toLocaleString('en')}; ${FIX_BY_SCOPE[scope]}.`,
    );
    this.name = 'TokenBudgetExceededError';
  }

  /** What the renderer's translation fills in: whose budget, and the numbers. */
  get params(): MessageParams {
    return { reason: this.scope, used: this.used, limit: this.limit };
  }
}

/** Counts the tokens the provider reports for a run's model calls against the run's and the session's limits. */
export class TokenBudget {
  private runTokens = 0;

  constructor(
    private readonly limits: TokenLimits,
    /** what the session had used before this run */
    private readonly sessionTokensBefore: number,
  ) {}

  add(usage: UsageTotals): void {
    this.runTokens += usage.totalTokens;
  }

  /** The limit this run has reached, if any: a model call made now would go over it. */
  exceeded(): TokenBudgetExceededError | undefined {
    const { run, session } = this.limits;
    if (run !== undefined && this.runTokens >= run) return new TokenBudgetExceededError('run', this.runTokens, run);
    const sessionTokens = this.sessionTokensBefore + this.runTokens;
    if (session !== undefined && sessionTokens >= session) {
      return new TokenBudgetExceededError('session', sessionTokens, session);
    }
    return undefined;
  }
}
