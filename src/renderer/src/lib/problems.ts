/** The problems people hit first, recognised from an error's code and text so the UI can show the fix. */
export type KnownProblem = 'token_budget' | 'no_key' | 'endpoint_down' | 'docker_missing';

const PATTERNS: Array<[KnownProblem, RegExp]> = [
  // the core's code for a run stopped at its token budget (session/token-budget.ts)
  ['token_budget', /^token_budget_exceeded /],
  ['docker_missing', /docker|sandbox_unavailable|engine_unavailable|\/var\/run\/docker\.sock/i],
  ['no_key', /no_llm|no language model|api[_ -]?key|unauthori[sz]ed|\b401\b|incorrect api key|authentication/i],
  [
    'endpoint_down',
    /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|connection error|unreachable|fetch failed|endpoint|timed out|llm_unavailable/i,
  ],
];

export function recogniseProblem(code: string, message: string): KnownProblem | undefined {
  const text = `${code} ${message}`;
  return PATTERNS.find(([, pattern]) => pattern.test(text))?.[0];
}
