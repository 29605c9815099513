import { z } from 'zod';

/** The bounds of a planning-flow turn: how many step runs it may make and for how long it may run. */
export const PlanningSettingsSchema = z.object({
  /** agent runs of plan steps in one turn; when reached, the flow stops and summarises */
  maxStepRuns: z.number().int().positive().default(100),
  /** minutes one turn may take before the flow stops and summarises */
  timeoutMinutes: z.number().positive().default(60),
});
export type PlanningSettings = z.infer<typeof PlanningSettingsSchema>;
