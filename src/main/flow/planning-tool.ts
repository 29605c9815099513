import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { PLAN_STEP_STATUSES, type PlanStepStatus } from '../../shared/events.js';
import { planText } from './plan-text.js';
import { reviseSteps } from './plan-revision.js';
import { taggedAgent } from './step-tags.js';
import type { NewPlanStep, Plan, PlanStore } from '../store/plan-store.js';
import { defineTool, toolError, toolOutput, type Tool, type ToolContext, type ToolResult } from '../tool/tool.js';

export const PLANNING_TOOL_NAME = 'planning';

export const PLANNING_COMMANDS = ['create', 'update', 'list', 'get', 'set_active', 'mark_step', 'delete'] as const;

export const PlanningParameters = z.object({
  command: z.enum(PLANNING_COMMANDS).describe('what to do'),
  plan_id: z
    .string()
    .min(1)
    .optional()
    .describe('the plan; create picks one when omitted; the other commands use the active plan when omitted'),
  title: z.string().optional().describe('title of the plan (create, update)'),
  steps: z
    .array(z.string())
    .optional()
    .describe(
      'the steps, in order (create, update). For update, give the full new list; completed steps are kept as they are.',
    ),
  step_dependencies: z
    .array(z.array(z.number().int().nonnegative()))
    .optional()
    .describe(
      'for each step, the 0-based indices of earlier steps it needs (create, update). [] = independent; omitted = after all earlier steps',
    ),
  step_index: z.number().int().optional().describe('0-based index of the step (mark_step)'),
  step_status: z
    .string()
    .optional()
    .describe(`new status of the step (mark_step): ${PLAN_STEP_STATUSES.join(', ')}`),
  step_notes: z.string().optional().describe('notes for the step (mark_step)'),
});
export type PlanningArguments = z.infer<typeof PlanningParameters>;

function isStatus(value: string): value is PlanStepStatus {
  return (PLAN_STEP_STATUSES as readonly string[]).includes(value);
}

/** Step rows from the model's `steps` and `step_dependencies`; a `[TAG]` naming a known agent becomes the step's agent. */
export function stepsFromArguments(
  steps: string[],
  dependencies: number[][] | undefined,
  knownAgents: readonly string[],
): NewPlanStep[] {
  return steps.map((text, index) => {
    const agent = taggedAgent(text, knownAgents);
    const dependsOn = dependencies?.[index]?.filter((dependency) => dependency < index);
    return { text, ...(agent ? { agent } : {}), ...(dependsOn ? { dependsOn } : {}) };
  });
}

function planLine(plan: Plan): string {
  const done = plan.steps.filter((step) => step.status === 'completed').length;
  return `• ${plan.id}${plan.isActive ? ' (active)' : ''}: ${plan.title} - ${done}/${plan.steps.length} steps completed`;
}

class PlanningError extends Error {}

function checkSteps(steps: string[] | undefined, command: string): string[] {
  if (!steps || steps.length === 0) throw new PlanningError(`The ${command} command needs a non-empty list of steps.`);
  if (steps.some((step) => !step.trim())) throw new PlanningError('Every step needs some text.');
  return steps;
}

function targetPlan(plans: PlanStore, sessionId: string, planId: string | undefined): Plan {
  if (planId) return plans.require(sessionId, planId);
  const active = plans.active(sessionId);
  if (!active) throw new PlanningError('There is no active plan. Give a plan_id or create a plan first.');
  return active;
}

function runCommand(
  plans: PlanStore,
  sessionId: string,
  args: PlanningArguments,
  knownAgents: readonly string[],
): string {
  switch (args.command) {
    case 'create': {
      const steps = checkSteps(args.steps, 'create');
      if (!args.title?.trim()) throw new PlanningError('The create command needs a title.');
      const id = args.plan_id ?? `plan_${Date.now()}_${randomUUID().slice(0, 8)}`;
      if (plans.get(sessionId, id)) throw new PlanningError(`A plan with id "${id}" already exists; use update.`);
      const plan = plans.create({
        sessionId,
        id,
        kind: 'planning',
        title: args.title.trim(),
        steps: stepsFromArguments(steps, args.step_dependencies, knownAgents),
      });
      return `Plan created successfully with ID: ${id}\n\n${planText(plan)}`;
    }
    case 'update': {
      const plan = targetPlan(plans, sessionId, args.plan_id);
      const revised = args.steps
        ? reviseSteps(
            plan.steps,
            stepsFromArguments(checkSteps(args.steps, 'update'), args.step_dependencies, knownAgents).map((step) => ({
              text: step.text,
              ...(step.agent ? { agent: step.agent } : {}),
              ...(step.dependsOn ? { dependsOn: step.dependsOn } : {}),
            })),
          )
        : undefined;
      const title = args.title?.trim() || undefined;
      const updated = revised
        ? plans.replaceSteps(sessionId, plan.id, revised, title)
        : title
          ? plans.updatePlan(sessionId, plan.id, { title })
          : plan;
      return `Plan updated successfully: ${plan.id}\n\n${planText(updated)}`;
    }
    case 'list': {
      const all = plans.list(sessionId);
      return all.length === 0
        ? 'No plans available. Create a plan with the create command.'
        : `Available plans:\n${all.map(planLine).join('\n')}`;
    }
    case 'get':
      return planText(targetPlan(plans, sessionId, args.plan_id));
    case 'set_active': {
      if (!args.plan_id) throw new PlanningError('The set_active command needs a plan_id.');
      return `Plan "${args.plan_id}" is now the active plan.\n\n${planText(plans.setActive(sessionId, args.plan_id))}`;
    }
    case 'mark_step':
      return markStep(plans, sessionId, args);
    case 'delete': {
      if (!args.plan_id) throw new PlanningError('The delete command needs a plan_id.');
      plans.delete(sessionId, args.plan_id);
      return `Plan "${args.plan_id}" has been deleted.`;
    }
  }
}

function markStep(plans: PlanStore, sessionId: string, args: PlanningArguments): string {
  const plan = targetPlan(plans, sessionId, args.plan_id);
  const index = args.step_index;
  if (index === undefined) throw new PlanningError('The mark_step command needs a step_index.');
  if (index < 0 || index >= plan.steps.length) {
    throw new PlanningError(
      `Invalid step_index ${index}: plan "${plan.id}" has ${plan.steps.length} steps (0 to ${plan.steps.length - 1}).`,
    );
  }
  const status = args.step_status;
  if (status !== undefined && !isStatus(status)) {
    throw new PlanningError(`Invalid step_status "${status}". Use one of: ${PLAN_STEP_STATUSES.join(', ')}.`);
  }
  const step = plan.steps[index];
  const changes = (status !== undefined && status !== step.status) || (args.step_notes ?? step.notes) !== step.notes;
  if (step.status === 'completed' && changes) {
    throw new PlanningError(`Step ${index} is completed; completed steps do not change.`);
  }
  const updated = plans.updateStep(sessionId, plan.id, index, {
    ...(status !== undefined ? { status } : {}),
    ...(args.step_notes !== undefined ? { notes: args.step_notes } : {}),
  });
  return `Step ${index} updated in plan ${plan.id}.\n\n${planText(updated)}`;
}

/** Runs one planning command for a session; errors come back as readable text. */
export function executePlanning(
  plans: PlanStore,
  sessionId: string,
  args: PlanningArguments,
  knownAgents: readonly string[],
): ToolResult {
  try {
    return toolOutput(runCommand(plans, sessionId, args, knownAgents));
  } catch (error) {
    return toolError(error instanceof Error ? error.message : String(error));
  }
}

/** The planning tool over a flow's plans; a step's `[TAG]` naming one of `knownAgents` becomes its agent. */
export function planningTool(plans: PlanStore, knownAgents: readonly string[]): Tool<typeof PlanningParameters> {
  return defineTool({
    name: PLANNING_TOOL_NAME,
    kind: 'plan',
    description:
      'Create and manage plans for complex tasks. Commands: create (title, steps), update (title and/or the full new ' +
      'list of steps), list, get, set_active, mark_step (step_index, step_status, step_notes), delete. Plans are saved ' +
      'with the session; completed steps never change.',
    parameters: PlanningParameters,
    risk: 'read',
    async execute(args, ctx: ToolContext) {
      return executePlanning(plans, ctx.sessionId, args, knownAgents);
    },
  });
}
