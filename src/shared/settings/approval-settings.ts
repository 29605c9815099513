import { z } from 'zod';

/** auto: run every tool; risky: ask before tools that write, execute or browse; all: ask before every tool */
export const ApprovalPolicySchema = z.enum(['auto', 'risky', 'all']);
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

export const ApprovalSettingsSchema = z.object({
  policy: ApprovalPolicySchema.default('auto'),
  /** tool names the user chose "always allow" for */
  alwaysAllow: z.array(z.string()).default([]),
});
export type ApprovalSettings = z.infer<typeof ApprovalSettingsSchema>;
