/** A step names its agent with a leading tag such as `[SWE]` or `[data_analysis]`. */
const AGENT_TAG = /\[([A-Za-z_][A-Za-z0-9_]*)\]/;

/** The agent a step's tag names, if it is one of `agents` (case-insensitive). */
export function taggedAgent(stepText: string, agents: readonly string[]): string | undefined {
  const tag = AGENT_TAG.exec(stepText)?.[1]?.toLowerCase();
  return tag ? agents.find((agent) => agent.toLowerCase() === tag) : undefined;
}

/** The step's executor: its tag, else the first executor, else the primary agent. */
export function executorFor(stepText: string, executors: readonly string[], primary: string): string {
  return taggedAgent(stepText, executors) ?? executors[0] ?? primary;
}

/** A Plan-Act step's executor: its `[TAG]`, else the agent its type names, else the first executor, else the primary. */
export function executorOfStep(
  step: { text: string; type?: string },
  executors: readonly string[],
  primary: string,
): string {
  return (
    taggedAgent(step.text, executors) ??
    (step.type ? taggedAgent(`[${step.type}]`, executors) : undefined) ??
    executorFor(step.text, executors, primary)
  );
}
