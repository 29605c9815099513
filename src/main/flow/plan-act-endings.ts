/** Why a Plan-Act run ended before its plan was carried out: a stable code and the sentence the person reads. */
export interface PlanActEnding {
  code: 'timeout' | 'step_limit' | 'replan_limit' | 'replan_failed' | 'goal_unreachable';
  text: string;
}

export const TIMEOUT_ENDING: PlanActEnding = {
  code: 'timeout',
  text: 'The time limit was reached before every step was done.',
};

export function stepLimitEnding(limit: number): PlanActEnding {
  return {
    code: 'step_limit',
    text: `The plan reached its limit of ${limit} steps (setting planAct.maxStepsPerPlan); the steps left were not run.`,
  };
}

/** How a failed step is named in an ending. */
export function failedStep(key: string, description: string, error: string): string {
  // the ending goes on with a new sentence: the error's own full stop is dropped
  return `Step ${key} (${description}) failed: ${error.replace(/[.\s]+$/, '')}`;
}

export function replanLimitEnding(failed: string, limit: number): PlanActEnding {
  return {
    code: 'replan_limit',
    text: `${failed}. The plan was already replanned ${limit} time${limit === 1 ? '' : 's'}, its limit (setting planAct.maxReplans).`,
  };
}

export function replanFailedEnding(failed: string, reason: string): PlanActEnding {
  return { code: 'replan_failed', text: `${failed}. The planner could not replan: ${reason}` };
}

export function goalUnreachableEnding(failed: string): PlanActEnding {
  return { code: 'goal_unreachable', text: `${failed}. The planner found no other way to the goal.` };
}
