import { rm } from 'node:fs/promises';
import { join, relative, isAbsolute } from 'node:path';
import type { CoreEvent } from '../../shared/events.js';
import type { AppInfo, CoreHandlers, InvokeResult, ModelChoice } from '../../shared/contract.js';
import type { AppSettings } from '../config/settings.js';
import type { SessionStore } from '../store/store-api.js';
import type { StartTaskRequest } from '../../shared/contract.js';
import { CoreApiError, invokeHandler } from './invoke.js';
import { exportSession } from './export-session.js';
import { maskSettings, unmaskSettings } from './settings-mask.js';
import { storeSettings, type SettingsAccess } from './settings-access.js';

/** The part of SessionService the UI drives (src/main/session/session-service.ts). */
export interface SessionRunner {
  start(request: StartTaskRequest): { sessionId: string; done: Promise<unknown> };
  resume(sessionId: string): { sessionId: string; done: Promise<unknown> };
  cancel(sessionId: string): Promise<void>;
  answer(sessionId: string, askId: string, answer: string): void;
  subscribe(listener: (event: CoreEvent) => void, sessionId?: string): () => void;
  isRunning(sessionId: string): boolean;
}

export interface CoreApiOptions {
  sessions: SessionRunner;
  store: SessionStore;
  dataDir: string;
  shell: AppInfo['shell'];
  version: string;
  settings?: SettingsAccess;
}

export interface CoreApi {
  handlers: CoreHandlers;
  /** validates and runs one request; never throws */
  invoke(name: unknown, payload: unknown): Promise<InvokeResult<unknown>>;
  /** every stored event of every session, live */
  onEvent(listener: (event: CoreEvent) => void): () => void;
}

const DEFAULT_EVENTS_PAGE = 100_000;

function visionOf(llm: AppSettings['llms'][string]): boolean {
  return llm.vision === 'auto' ? /vision|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|vl\b/i.test(llm.model) : llm.vision;
}

function modelChoices(settings: AppSettings): ModelChoice[] {
  return Object.entries(settings.llms).map(([name, llm]) => ({ name, model: llm.model, vision: visionOf(llm) }));
}

function isInside(parent: string, child: string): boolean {
  const path = relative(parent, child);
  return path !== '' && !path.startsWith('..') && !isAbsolute(path);
}

/** The handlers of every request in the contract, shared by the Electron shell and the web server. */
export function createCoreApi(options: CoreApiOptions): CoreApi {
  const { sessions, store, dataDir } = options;
  const settings = options.settings ?? storeSettings(store);
  const workspacesRoot = join(dataDir, 'workspaces');

  function sessionOrThrow(sessionId: string) {
    const session = store.getSession(sessionId);
    if (!session) throw new CoreApiError('not_found', `No session ${sessionId}.`);
    return session;
  }

  const summary = (sessionId: string) => {
    const session = store.getSession(sessionId);
    return session ? { session, running: sessions.isRunning(sessionId) } : null;
  };

  const handlers: CoreHandlers = {
    startTask: (request) => {
      if (request.sessionId) {
        sessionOrThrow(request.sessionId);
        if (sessions.isRunning(request.sessionId)) {
          throw new CoreApiError('busy', 'This session is still running.', 'Stop it or wait for it to finish.');
        }
      }
      const { sessionId, done } = sessions.start(request);
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
    answer: ({ sessionId, askId, answer }) => {
      sessionOrThrow(sessionId);
      sessions.answer(sessionId, askId, answer);
      return { ok: true };
    },
    listSessions: (request) =>
      store.listSessions(request).map((session) => ({ session, running: sessions.isRunning(session.id) })),
    getSession: ({ sessionId }) => summary(sessionId),
    getEvents: ({ sessionId, afterSeq, limit }) =>
      store.listEvents(sessionId, { afterSeq, limit: limit ?? DEFAULT_EVENTS_PAGE }),
    searchSessions: ({ query, limit }) => store.searchSessions(query, limit),
    renameSession: ({ sessionId, title }) => {
      sessionOrThrow(sessionId);
      return store.updateSession(sessionId, { title });
    },
    deleteSession: async ({ sessionId }) => {
      const session = sessionOrThrow(sessionId);
      if (sessions.isRunning(sessionId)) await sessions.cancel(sessionId);
      store.deleteSession(sessionId);
      // only folders the app created are removed; a folder the user chose stays theirs
      if (isInside(workspacesRoot, session.workspace)) await rm(session.workspace, { recursive: true, force: true });
      return { ok: true };
    },
    exportSession: ({ sessionId, format }) =>
      exportSession(sessionOrThrow(sessionId), store.listEvents(sessionId, { limit: DEFAULT_EVENTS_PAGE }), format),
    getSettings: () => maskSettings(settings.read()),
    updateSettings: ({ settings: incoming }) => {
      settings.write(unmaskSettings(incoming, settings.read()));
      return maskSettings(settings.read());
    },
    appInfo: () => {
      const current = settings.read();
      const running = store
        .listSessions({ status: 'running' })
        .map((session) => session.id)
        .filter((id) => sessions.isRunning(id));
      return {
        version: options.version,
        shell: options.shell,
        platform: process.platform,
        dataDir,
        models: modelChoices(current),
        defaultModel: current.defaultLlm ?? Object.keys(current.llms)[0],
        runningSessionIds: running,
      };
    },
  };

  return {
    handlers,
    invoke: (name, payload) => invokeHandler(handlers, name, payload),
    onEvent: (listener) => sessions.subscribe(listener),
  };
}
