import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';
import { z } from 'zod';

/** `/proc/<pid>/stat`: the process start time (clock ticks after boot) is field 22, the 20th after the command name */
const STAT_START_TIME_INDEX = 19;

/**
 * A process named well enough to tell later whether it still runs: its pid, its start time where the OS tells it
 * (so a pid reused by a newer process is not taken for it), and the host and pid namespace whose process table the
 * pid belongs to.
 */
export interface OwnerProcess {
  pid: number;
  /** Linux only: start time in clock ticks after boot */
  started?: string;
  host: string;
  /** Linux only: a process in another pid namespace of the same host (a Flatpak app, a container) has other pids */
  pidNamespace?: string;
}

/** An OwnerProcess as a file records it. */
export const OwnerProcessSchema = z.object({
  pid: z.number().int(),
  started: z.string().optional(),
  host: z.string(),
  pidNamespace: z.string().optional(),
});

export function currentProcess(): OwnerProcess {
  const started = processStartTime(process.pid);
  const namespace = pidNamespace();
  return {
    pid: process.pid,
    ...(started ? { started } : {}),
    host: hostname(),
    ...(namespace ? { pidNamespace: namespace } : {}),
  };
}

/** Linux: the pid namespace this process sees pids in (`pid:[4026531836]`); elsewhere undefined. */
function pidNamespace(): string | undefined {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return undefined;
  }
}

/** Linux: field 22 of /proc/<pid>/stat; elsewhere (or when unreadable) undefined. */
export function processStartTime(pid: number): string | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // the command name (field 2) is in parentheses and may hold spaces or ')': the fields after the last ')' are fixed
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields[STAT_START_TIME_INDEX];
}

/** Whether the process still runs: true, false, or undefined when its pid is not in this process table (not ours to judge). */
export function isOwnerAlive(owner: OwnerProcess): boolean | undefined {
  if (owner.host !== hostname()) return undefined;
  if (owner.pidNamespace && owner.pidNamespace !== pidNamespace()) return undefined;
  if (!Number.isInteger(owner.pid) || owner.pid <= 0) return false;
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to another user
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (owner.started === undefined) return true;
  const started = processStartTime(owner.pid);
  // a start time that differs is a newer process that got the same pid
  return started === undefined || started === owner.started;
}
