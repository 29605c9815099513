import type { PlanStep } from '../store/plan-store.js';

function isOpen(step: PlanStep): boolean {
  return step.status === 'not_started' || step.status === 'in_progress';
}

/** The steps a step waits for: the ones it names, else every earlier step. */
export function prerequisitesOf(step: PlanStep): number[] {
  return step.dependsOn ?? Array.from({ length: step.index }, (_, index) => index);
}

function isReady(step: PlanStep, steps: PlanStep[]): boolean {
  return prerequisitesOf(step).every((index) => index >= step.index || steps[index]?.status === 'completed');
}

/** Up to `limit` unfinished steps whose prerequisites are completed, in plan order. */
export function runnableSteps(steps: PlanStep[], limit: number): number[] {
  return steps
    .filter((step) => isOpen(step) && isReady(step, steps))
    .slice(0, Math.max(1, limit))
    .map((step) => step.index);
}

/** Whether anything is left to do (steps still open, whether or not they can run now). */
export function hasOpenSteps(steps: PlanStep[]): boolean {
  return steps.some(isOpen);
}
