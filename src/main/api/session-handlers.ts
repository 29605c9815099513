import type { CoreHandlers } from '../../shared/contract.js';
import type { SandboxSettings } from '../../shared/settings/sandbox-settings.js';
import type { SessionService } from '../session/session-service.js';
import type { SessionStore } from '../store/store-api.js';
import { deleteSessionEverywhere } from '../store/session-files.js';
import { cleanupClient, removeSessionSandbox } from '../sandbox/session-sandbox.js';
import { saveUploads } from '../workspace/workspace-files.js';
import type { UploadStaging } from '../workspace/upload-staging.js';
import { asUploadCoreError } from './upload-handlers.js';
import { checkedWorkspaceFolder } from './workspace-folder-handlers.js';
import { rememberWorkspace } from '../store/recent-workspaces.js';
import { CoreApiError } from './invoke.js';
import { requireSession } from './session-lookup.js';

/** events a history request returns when the UI names no page size: a whole session, in practice */
const DEFAULT_EVENTS_PAGE = 100_000;

/** The part of SessionService the UI drives. */
export type SessionRunner = Pick<
  SessionService,
  | 'start'
  | 'resume'
  | 'retry'
  | 'cancel'
  | 'answer'
  | 'rename'
  | 'subscribe'
  | 'isRunning'
  | 'runningSessionIds'
  | 'agentNames'
  | 'release'
  | 'withLiveStatus'
>;

export type SessionHandlers = Pick<
  CoreHandlers,
  | 'startTask'
  | 'cancel'
  | 'resume'
  | 'retryTurn'
  | 'answer'
  | 'listSessions'
  | 'getSession'
  | 'getEvents'
  | 'searchSessions'
  | 'renameSession'
  | 'deleteSession'
>;

/** Sessions: start, stop, resume and answer a run; list, read, search, rename and delete the stored ones. */
export function createSessionHandlers(options: {
  sessions: SessionRunner;
  store: SessionStore;
  dataDir: string;
  /** the sandbox settings runs use, to remove a deleted session's container */
  sandboxSettings: () => SandboxSettings;
  /** files uploaded for the next message */
  uploads: UploadStaging;
}): SessionHandlers {
  const { sessions, store, dataDir, sandboxSettings, uploads: staging } = options;
  const sessionOrThrow = (sessionId: string) => requireSession(store, sessionId);

  return {
    startTask: ({ uploads, ...request }) => {
      if (request.sessionId) {
        sessionOrThrow(request.sessionId);
        if (sessions.isRunning(request.sessionId)) {
          throw new CoreApiError('busy', 'This session is still running.', 'Stop it or wait for it to finish.');
        }
      }
      // refused before the turn starts: an unfinished upload or a bad folder leaves the message unsent, files staged
      asUploadCoreError(() => staging.check(uploads ?? []));
      const workspace =
        request.workspace && !request.sessionId ? checkedWorkspaceFolder(request.workspace, dataDir) : undefined;
      // the files land in the workspace (a new session's exists by then) before its first step runs
      const attach = uploads?.length
        ? (workspace: string) => {
            const taken = staging.take(uploads);
            try {
              return saveUploads(workspace, taken.files);
            } finally {
              taken.done();
            }
          }
        : undefined;
      const { sessionId, done } = sessions.start(workspace ? { ...request, workspace } : request, { attach });
      if (workspace) rememberWorkspace(store, workspace);
      // the outcome reaches the UI as a `done` event; nothing waits on this promise
      done.catch(() => undefined);
      return { sessionId };
    },
    cancel: async ({ sessionId }) => {
      sessionOrThrow(sessionId);
      await sessions.cancel(sessionId);
      return { ok: true };
    },
    resume: ({ sessionId }) => {
      sessionOrThrow(sessionId);
      const { done } = sessions.resume(sessionId);
      done.catch(() => undefined);
      return { sessionId };
    },
    retryTurn: ({ sessionId }) => {
      sessionOrThrow(sessionId);
      if (sessions.isRunning(sessionId)) {
        throw new CoreApiError('busy', 'This session is still running.', 'Stop it or wait for it to finish.');
      }
      const { done } = sessions.retry(sessionId);
      done.catch(() => undefined);
      return { sessionId };
    },
    answer: ({ sessionId, askId, answer }) => {
      sessionOrThrow(sessionId);
      if (!sessions.answer(sessionId, askId, answer)) {
        throw new CoreApiError(
          'not_waiting',
          'Nothing is waiting for this answer any more.',
          'The question was answered or the run stopped.',
        );
      }
      return { ok: true };
    },
    // a run whose process died shows as interrupted (with Resume) the moment it is listed or opened
    listSessions: (request) =>
      store
        .listSessions(request)
        .map((stored) => sessions.withLiveStatus(stored))
        .map((session) => ({ session, running: sessions.isRunning(session.id) })),
    getSession: ({ sessionId }) => {
      const session = store.getSession(sessionId);
      return session ? { session: sessions.withLiveStatus(session), running: sessions.isRunning(sessionId) } : null;
    },
    getEvents: ({ sessionId, afterSeq, limit }) =>
      store.listEvents(sessionId, { afterSeq, limit: limit ?? DEFAULT_EVENTS_PAGE }),
    searchSessions: ({ query, limit }) => store.searchSessions(query, limit),
    renameSession: ({ sessionId, title }) => {
      sessionOrThrow(sessionId);
      return sessions.rename(sessionId, title);
    },
    deleteSession: async ({ sessionId }) => {
      sessionOrThrow(sessionId);
      // a running turn is stopped and its sandbox and browser closed before the rows go
      await sessions.release(sessionId);
      await removeSessionSandbox(sessionId, cleanupClient(sandboxSettings));
      // only the folder the app created is removed; a folder the user chose stays theirs
      deleteSessionEverywhere(store, dataDir, sessionId);
      return { ok: true };
    },
  };
}
