import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { SessionInfo } from '../../shared/events.js';
import type { SessionStore } from '../store/store-api.js';
import { join } from 'node:path';

/**
 * A file per running session naming the process that runs it, so that a process starting later (the app,
 * another CLI) can tell a live run from one whose process died (`kill -9`, a crash, a power cut).
 */
function markerPath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'run', `${sessionId}.pid`);
}

export function markRunning(dataDir: string, sessionId: string): void {
  mkdirSync(join(dataDir, 'run'), { recursive: true });
  writeFileSync(markerPath(dataDir, sessionId), String(process.pid));
}

export function clearRunning(dataDir: string, sessionId: string): void {
  rmSync(markerPath(dataDir, sessionId), { force: true });
}

/** Whether another live process is running this session right now. */
export function isRunningElsewhere(dataDir: string, sessionId: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(markerPath(dataDir, sessionId), 'utf8'));
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sessions left `running` by a process that is gone become `interrupted`; returns them. */
export function recoverDeadRuns(store: SessionStore, dataDir: string): SessionInfo[] {
  const recovered: SessionInfo[] = [];
  for (const session of store.listSessions({ status: 'running', limit: 10_000 })) {
    if (isRunningElsewhere(dataDir, session.id)) continue;
    clearRunning(dataDir, session.id);
    recovered.push(store.updateSession(session.id, { status: 'interrupted' }));
  }
  return recovered;
}
