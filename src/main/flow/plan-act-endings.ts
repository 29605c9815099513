import type { NoticeArgs } from '../../shared/notice-codes.js';

type EndingCode =
  'plan_timeout' | 'plan_step_limit' | 'plan_replan_limit' | 'plan_replan_failed' | 'plan_goal_unreachable';

/** Why a Plan-Act run ended before its plan was carried out: the English, and the notice that says it. */
export interface PlanActEnding {
  text: string;
  notice: NoticeArgs<EndingCode>;
}

function ending(...notice: NoticeArgs<EndingCode>): PlanActEnding {
  return { text: notice[1], notice };
}

/** A failed step as endings and notices name it. */
export interface FailedStep {
  step: string;
  description: string;
  error: string;
}

export const TIMEOUT_ENDING = ending('plan_timeout', 'The time limit was reached before every step was done.');

export function failedStep(step: string, description: string, error: string): FailedStep {
  // the ending goes on with a new sentence: the error's own full stop is dropped
  return { step, description, error: error.replace(/[.\s]+$/, '') };
}

function failedText(failed: FailedStep): string {
  return `Step ${failed.step} (${failed.description}) failed: ${failed.error}`;
}

export function stepLimitEnding(limit: number): PlanActEnding {
  return ending(
    'plan_step_limit',
    `The plan reached its limit of ${limit} steps (setting planAct.maxStepsPerPlan); the steps left were not run.`,
    { limit },
  );
}

export function replanLimitEnding(failed: FailedStep, limit: number): PlanActEnding {
  return ending(
    'plan_replan_limit',
    `${failedText(failed)}. The replan limit (${limit}, setting planAct.maxReplans) was reached.`,
    { ...failed, limit },
  );
}

export function replanFailedEnding(failed: FailedStep, reason: string): PlanActEnding {
  return ending('plan_replan_failed', `${failedText(failed)}. The planner could not replan: ${reason}`, {
    ...failed,
    reason,
  });
}

export function goalUnreachableEnding(failed: FailedStep): PlanActEnding {
  return ending('plan_goal_unreachable', `${failedText(failed)}. The planner found no other way to the goal.`, {
    ...failed,
  });
}

/** The notice that a failed step was replanned. */
export function replannedNotice(failed: FailedStep, replan: number, limit: number, steps: number) {
  return {
    params: { ...failed, replan, limit, steps },
    text: `${failedText(failed)}. The planner replanned (${replan} of ${limit}); steps to do: ${steps}.`,
  };
}
