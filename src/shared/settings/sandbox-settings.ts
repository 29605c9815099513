import { z } from 'zod';

export const SandboxSettingsSchema = z.object({
  /** docker: a hardened container per session; local: the same tools on the host, inside the workspace (explicit opt-in) */
  mode: z.enum(['docker', 'local']).default('docker'),
  image: z.string().default('manus-sandbox:latest'),
  /** the Docker engine: a context name or an endpoint URL (ssh://user@host, tcp://host:2376); unset: as the docker CLI */
  engine: z.string().min(1).optional(),
  /** how /workspace reaches the sandbox: bind-mounted, or copied into a volume on the engine and synced after each call */
  workspace: z.enum(['bind', 'copy', 'auto']).default('auto'),
  memoryMb: z.number().int().min(64).default(1024),
  cpus: z.number().positive().default(1),
  pidsLimit: z.number().int().min(16).default(256),
  /** network inside the container; off unless the user allows it */
  network: z.boolean().default(false),
  idleTimeoutMs: z
    .number()
    .int()
    .positive()
    .default(15 * 60_000),
  /** long-lived processes (serve, the app, a2a): containers kept running for finished sessions; the oldest idle beyond go */
  maxIdleSandboxes: z.number().int().min(0).default(3),
  /** most the workspace may hold, in MB (0: no limit): a writer past it is stopped (docker mode), a download cancelled */
  workspaceQuotaMb: z.number().int().min(0).default(4096),
  /** size of the in-memory /tmp and home folder inside the container */
  tmpfsMb: z.number().int().min(16).default(256),
  /** python_execute: a cell running longer is interrupted */
  pythonTimeoutSeconds: z.number().positive().default(60),
  /** bash: a command printing nothing new for this long returns what it has and keeps running */
  bashIdleSeconds: z.number().positive().default(10),
  /** bash: the longest one call waits before returning (the command keeps running) */
  bashTimeoutSeconds: z.number().positive().default(120),
});
export type SandboxSettings = z.infer<typeof SandboxSettingsSchema>;
