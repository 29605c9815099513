import { z } from 'zod';

/**
 * The bounds of a Plan-Act turn: how often a failed step may be replanned, how many steps a plan may run, and for
 * how long.
 */
export const PlanActSettingsSchema = z.object({
  /** replans after failed steps in one plan; when a step fails past it, the run ends */
  maxReplans: z.number().int().nonnegative().default(3),
  /** step runs in one plan (replanned steps count anew); when reached, the run ends with a summary */
  maxStepsPerPlan: z.number().int().positive().default(30),
  /** minutes one turn may take; when reached, the run ends with a summary */
  timeoutMinutes: z.number().positive().default(60),
});
export type PlanActSettings = z.infer<typeof PlanActSettingsSchema>;
