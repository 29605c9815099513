import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LIVE_SESSION_STATUSES, isLiveStatus, type SessionInfo } from '../../shared/events.js';
import { currentProcess, isOwnerAlive, OwnerProcessSchema, type OwnerProcess } from '../process/owner-process.js';
import type { SessionStore } from '../store/store-api.js';

/**
 * A file per running session naming the process that runs it (pid, start time, host): a process starting later (the
 * app, another CLI) tells a live run from one whose process died (`kill -9`, a crash, a power cut), and a second
 * process refuses to run the session while the first one lives. The lock dies with its owner: a marker naming a
 * process that is gone is taken over.
 */
function markerPath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'run', `${sessionId}.pid`);
}

/** Another live process runs the session: it says who, and what to do. */
export class SessionBusyError extends Error {
  override readonly name = 'SessionBusyError';
  readonly hint: string;

  constructor(
    readonly sessionId: string,
    readonly holder: OwnerProcess,
    /** the marker file, to delete by hand when its process is on another host or pid namespace and gone */
    readonly marker: string,
  ) {
    super(
      `Session ${sessionId} is being run by another manus process (pid ${holder.pid} on ${holder.host}); ` +
        'two processes running one session would interleave its memory.',
    );
    this.hint =
      isOwnerAlive(holder) === undefined
        ? `Wait for that run to finish. If that process is gone (it ran on another host or in a sandboxed app), delete ${marker}.`
        : `Wait for that run to finish, or stop it (Ctrl-C there, or kill ${holder.pid}), then try again.`;
  }
}

/** The process a marker names; a marker written before start times were recorded holds only a pid of this host. */
function readMarker(dataDir: string, sessionId: string): OwnerProcess | undefined {
  let text: string;
  try {
    text = readFileSync(markerPath(dataDir, sessionId), 'utf8').trim();
  } catch {
    return undefined;
  }
  if (/^\d+$/.test(text)) return { pid: Number(text), host: currentProcess().host };
  try {
    return OwnerProcessSchema.parse(JSON.parse(text));
  } catch {
    // unreadable: nobody can be shown to hold it
    return undefined;
  }
}

function isThisProcess(owner: OwnerProcess): boolean {
  const self = currentProcess();
  return owner.pid === self.pid && owner.host === self.host;
}

/** The live process (not this one) that runs the session now, if any; another host's is taken as live. */
function liveHolder(dataDir: string, sessionId: string): OwnerProcess | undefined {
  const holder = readMarker(dataDir, sessionId);
  if (!holder || isThisProcess(holder)) return undefined;
  return isOwnerAlive(holder) === false ? undefined : holder;
}

/**
 * Takes the session's run lock for this process, or throws SessionBusyError naming the live holder. Done under the
 * store's write lock, so two processes starting the same session at once cannot both see it free.
 */
export function claimRun(store: SessionStore, dataDir: string, sessionId: string): void {
  store.exclusive(() => {
    const holder = liveHolder(dataDir, sessionId);
    if (holder) throw new SessionBusyError(sessionId, holder, markerPath(dataDir, sessionId));
    mkdirSync(join(dataDir, 'run'), { recursive: true });
    writeFileSync(markerPath(dataDir, sessionId), JSON.stringify(currentProcess()));
  });
}

/** This process's run of the session ended: its marker goes (another process's is left alone). */
export function clearRunning(dataDir: string, sessionId: string): void {
  const holder = readMarker(dataDir, sessionId);
  if (holder && !isThisProcess(holder)) return;
  rmSync(markerPath(dataDir, sessionId), { force: true });
}

/** Whether another live process is running this session right now. */
export function isRunningElsewhere(dataDir: string, sessionId: string): boolean {
  return liveHolder(dataDir, sessionId) !== undefined;
}

/** The session is stored as live (running, or waiting for an answer), yet no live process runs it: its process died. */
export function isDeadRun(dataDir: string, session: SessionInfo, runsHere: boolean): boolean {
  return isLiveStatus(session.status) && !runsHere && !isRunningElsewhere(dataDir, session.id);
}

/**
 * Sessions left live (running, or waiting for an answer) by a process that is gone become `interrupted`, and their
 * history says so (a status event): a page replaying the events shows them interrupted whichever process found them.
 * Returns them.
 */
export function recoverDeadRuns(store: SessionStore, dataDir: string): SessionInfo[] {
  const recovered: SessionInfo[] = [];
  const live = LIVE_SESSION_STATUSES.flatMap((status) => store.listSessions({ status, limit: 10_000 }));
  for (const session of live) {
    if (isRunningElsewhere(dataDir, session.id)) continue;
    rmSync(markerPath(dataDir, session.id), { force: true });
    const interrupted = store.updateSession(session.id, { status: 'interrupted' });
    store.appendEvent({
      type: 'session',
      sessionId: session.id,
      action: 'status',
      session: interrupted,
      ts: Date.now(),
    });
    recovered.push(interrupted);
  }
  return recovered;
}
