import type { NewPlanStep, PlanStep } from '../store/plan-store.js';

/** Steps a revision may not touch: finished work, and work running right now (parallel steps). */
function isSettled(step: PlanStep): boolean {
  return step.status === 'completed' || step.status === 'in_progress';
}

export interface RevisedStep {
  text: string;
  dependsOn?: number[];
  agent?: string;
}

/**
 * The step list after the planner rewrote the plan. Completed (and running) steps never change: when the new list
 * names them they stay where it puts them, otherwise they are kept in front. Other steps whose text is unchanged keep
 * their status and notes.
 */
export function reviseSteps(current: PlanStep[], revised: RevisedStep[]): NewPlanStep[] {
  const settled = current.filter(isSettled);
  const settledTexts = new Set(settled.map((step) => step.text));
  const named = new Set(revised.map((step) => step.text).filter((text) => settledTexts.has(text)));
  const kept: NewPlanStep[] = settled.filter((step) => !named.has(step.text)).map(keepStep);
  const usedSettled = new Set<string>();
  for (const step of revised) {
    const settledStep = settled.find((s) => s.text === step.text && !usedSettled.has(s.text));
    if (settledStep) {
      usedSettled.add(settledStep.text);
      kept.push(keepStep(settledStep));
      continue;
    }
    const previous = current.find((s) => s.text === step.text && !isSettled(s));
    kept.push({
      text: step.text,
      ...(previous ? { key: previous.key } : {}),
      status: previous?.status ?? 'not_started',
      notes: previous?.notes ?? '',
      ...(step.agent ? { agent: step.agent } : previous?.agent ? { agent: previous.agent } : {}),
      ...(step.dependsOn ? { dependsOn: step.dependsOn } : {}),
      runs: previous?.runs ?? 0,
    });
  }
  return kept;
}

function keepStep(step: PlanStep): NewPlanStep {
  const { index: _index, ...rest } = step;
  return rest;
}
