import { z } from 'zod';

/** Files a person attaches to a message or drops into the workspace panel. */
export const UploadSettingsSchema = z.object({
  /** the largest file accepted, in MB; files travel to disk in chunks, so this bounds disk use, not memory */
  maxFileMb: z.number().int().positive().max(100_000).default(100),
});
export type UploadSettings = z.infer<typeof UploadSettingsSchema>;
