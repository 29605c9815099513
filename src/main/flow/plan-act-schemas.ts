import { z } from 'zod';
import type { PlanStepStatus } from '../../shared/events.js';
import { extractJson, type StepReport } from '../../shared/step-report.js';

/** What a Plan-Act executor answers when its step is done (the seed's `{success, result, attachments}`). */
export const StepReportSchema = z.object({
  success: z.boolean(),
  result: z.string(),
  attachments: z.array(z.string()).default([]),
}) satisfies z.ZodType<StepReport, unknown>;

/** ids may come back as numbers; they are kept as text */
const StepIdSchema = z.union([z.string().min(1), z.number()]).transform(String);

export const PlannedStepSchema = z.object({
  id: StepIdSchema,
  description: z.string().min(1),
  /** the agent that should carry the step out (the seed's step type); unknown types fall back to the default */
  type: z
    .string()
    .nullish()
    .transform((type) => type?.trim() || undefined),
});
export type PlannedStep = z.infer<typeof PlannedStepSchema>;

/** The Planner's answer to a new task; an infeasible task gets no steps and a message saying why. */
export const PlanActPlanSchema = z.object({
  title: z.string().min(1),
  goal: z.string().default(''),
  language: z.string().min(1).default('en'),
  steps: z.array(PlannedStepSchema),
  message: z.string().default(''),
});
export type PlanActPlan = z.infer<typeof PlanActPlanSchema>;

/** The Planner's answer after a step: the steps still to do, replacing the unfinished tail. */
export const PlanActUpdateSchema = z.object({ steps: z.array(PlannedStepSchema) });

export const PlanActSummarySchema = z.object({
  message: z.string().min(1),
  attachments: z.array(z.string()).default([]),
});
export type PlanActSummary = z.infer<typeof PlanActSummarySchema>;

export const PLAN_ACT_STEP_STATUSES = ['pending', 'running', 'completed', 'failed'] as const;
export type PlanActStepStatus = (typeof PLAN_ACT_STEP_STATUSES)[number];

/** Plan-Act statuses as the shared plan table (and the UI) know them. */
export const STORED_STATUS: Record<PlanActStepStatus, PlanStepStatus> = {
  pending: 'not_started',
  running: 'in_progress',
  completed: 'completed',
  failed: 'blocked',
};

export function planActStatus(status: PlanStepStatus): PlanActStepStatus {
  return (Object.keys(STORED_STATUS) as PlanActStepStatus[]).find((key) => STORED_STATUS[key] === status) ?? 'pending';
}

/** Parses a reply against a schema; the error text is what the model is told when it has to try again. */
export function parseReply<T>(
  text: string,
  schema: z.ZodType<T>,
): { ok: true; value: T } | { ok: false; error: string } {
  let json: unknown;
  try {
    json = extractJson(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  const parsed = schema.safeParse(json);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: z.prettifyError(parsed.error).replaceAll('\n', '; ') };
}
