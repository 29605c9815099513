import { z } from 'zod';

/** Choosing a folder of one's own for a new session's workspace (startTask's `workspace`). */

export const CheckWorkspaceFolderRequestSchema = z.object({ path: z.string().max(4096) });
/** the folder as it will be used: resolved, links followed */
export const WorkspaceFolderSchema = z.object({ path: z.string() });
export const RecentWorkspacesSchema = z.object({ folders: z.array(z.string()) });
/** the desktop app's folder dialog; null when the person closed it without choosing */
export const PickedFolderSchema = z.object({ path: z.string().nullable() });
