import type { PlanSnapshot, PlanStepStatus } from '../../shared/events.js';
import type { Plan, PlanStep } from '../store/plan-store.js';

const STATUS_MARKS: Record<PlanStepStatus, string> = {
  not_started: '[ ]',
  in_progress: '[→]',
  completed: '[✓]',
  blocked: '[!]',
};

type PlanForText = Pick<Plan, 'id' | 'title'> & { steps: Pick<PlanStep, 'text' | 'status' | 'notes'>[] };

function countOf(steps: PlanForText['steps'], status: PlanStepStatus): number {
  return steps.filter((step) => step.status === status).length;
}

function percent(done: number, total: number): string {
  return total === 0 ? '0%' : `${((done / total) * 100).toFixed(1)}%`;
}

/** The plan as the model and the UI read it: header, progress, counts per status, then each step with its notes. */
export function planText(plan: PlanForText): string {
  const header = `Plan: ${plan.title} (ID: ${plan.id})`;
  const completed = countOf(plan.steps, 'completed');
  const total = plan.steps.length;
  const lines = [
    header,
    '='.repeat(header.length),
    '',
    `Progress: ${completed}/${total} steps completed (${percent(completed, total)})`,
    `Status: ${completed} completed, ${countOf(plan.steps, 'in_progress')} in progress, ${countOf(plan.steps, 'blocked')} blocked, ${countOf(plan.steps, 'not_started')} not started`,
    '',
    'Steps:',
  ];
  plan.steps.forEach((step, index) => {
    lines.push(`${index}. ${STATUS_MARKS[step.status]} ${step.text}`);
    // continuation lines keep the notes' indentation so a multi-line note stays under its step
    if (step.notes) lines.push(`   Notes: ${step.notes.replaceAll('\n', '\n   ')}`);
  });
  return lines.join('\n');
}

/** The plan as events carry it. */
export function planSnapshot(plan: Plan): PlanSnapshot {
  const planAct = plan.kind === 'plan_act';
  return {
    planId: plan.id,
    title: plan.title,
    ...(planAct ? { goal: plan.goal, language: plan.language, message: plan.message } : {}),
    steps: plan.steps.map((step) => ({
      ...(planAct ? { id: step.key } : {}),
      text: step.text,
      status: step.status,
      notes: step.notes,
      ...(step.agent ? { agent: step.agent } : {}),
      ...(step.dependsOn ? { dependsOn: step.dependsOn } : {}),
      ...(step.result !== undefined ? { result: step.result } : {}),
      ...(step.attachments.length ? { attachments: step.attachments } : {}),
      ...(step.error ? { error: step.error } : {}),
    })),
    text: planText(plan),
  };
}
