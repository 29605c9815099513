/** Why a Plan-Act run ended before its plan was carried out: a stable code, the values in it, and the English. */
export interface PlanActEnding {
  code: 'timeout' | 'step_limit' | 'replan_limit' | 'replan_failed' | 'goal_unreachable';
  params: Record<string, string | number>;
  text: string;
}

/** A failed step as endings and notices name it. */
export interface FailedStep {
  step: string;
  description: string;
  error: string;
}

export const TIMEOUT_ENDING: PlanActEnding = {
  code: 'timeout',
  params: {},
  text: 'The time limit was reached before every step was done.',
};

export function failedStep(step: string, description: string, error: string): FailedStep {
  // the ending goes on with a new sentence: the error's own full stop is dropped
  return { step, description, error: error.replace(/[.\s]+$/, '') };
}

function failedText(failed: FailedStep): string {
  return `Step ${failed.step} (${failed.description}) failed: ${failed.error}`;
}

export function stepLimitEnding(limit: number): PlanActEnding {
  return {
    code: 'step_limit',
    params: { limit },
    text: `The plan reached its limit of ${limit} steps (setting planAct.maxStepsPerPlan); the steps left were not run.`,
  };
}

export function replanLimitEnding(failed: FailedStep, limit: number): PlanActEnding {
  return {
    code: 'replan_limit',
    params: { ...failed, limit },
    text: `${failedText(failed)}. The replan limit (${limit}, setting planAct.maxReplans) was reached.`,
  };
}

export function replanFailedEnding(failed: FailedStep, reason: string): PlanActEnding {
  return {
    code: 'replan_failed',
    params: { ...failed, reason },
    text: `${failedText(failed)}. The planner could not replan: ${reason}`,
  };
}

export function goalUnreachableEnding(failed: FailedStep): PlanActEnding {
  return {
    code: 'goal_unreachable',
    params: { ...failed },
    text: `${failedText(failed)}. The planner found no other way to the goal.`,
  };
}

/** The notice that a failed step was replanned. */
export function replannedNotice(failed: FailedStep, replan: number, limit: number, steps: number) {
  return {
    params: { ...failed, replan, limit, steps },
    text: `${failedText(failed)}. The planner replanned (${replan} of ${limit}); steps to do: ${steps}.`,
  };
}
