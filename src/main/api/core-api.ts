import type { CoreEvent } from '../../shared/events.js';
import type { McpCredentialStore } from '../mcp/oauth/credential-store.js';
import type { AppInfo, CoreHandlers, InvokeResult, ModelChoice } from '../../shared/contract.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { SessionStore } from '../store/store-api.js';
import type { SessionService } from '../session/session-service.js';
import { CoreApiError, invokeHandler } from './invoke.js';
import type { SettingsAccess } from './settings-access.js';
import { exportSessionJson, exportSessionMarkdown } from '../store/export.js';
import { deleteSessionEverywhere } from '../store/session-files.js';
import { cleanupClient, removeSessionSandbox } from '../sandbox/session-sandbox.js';
import { collectSecrets, maskSecrets, restoreMaskedSecrets } from '../store/settings-secrets.js';
import { environmentSecrets } from '../store/redact.js';
import { createAppHandlers } from './app-handlers.js';
import { createEventWindowHandlers } from './event-window-handlers.js';
import { attachmentNote, plannedUploadPaths, saveUploads } from '../workspace/workspace-files.js';

/** The part of SessionService the UI drives. */
export type SessionRunner = Pick<
  SessionService,
  'start' | 'resume' | 'cancel' | 'answer' | 'subscribe' | 'isRunning' | 'runningSessionIds' | 'release'
>;

export interface CoreApiOptions {
  sessions: SessionRunner;
  store: SessionStore;
  dataDir: string;
  shell: AppInfo['shell'];
  version: string;
  settings: SettingsAccess;
  /** the settings runs use (saved ones plus env overrides); the saved ones when unset */
  runSettings?: () => AppSettings;
  /** the desktop shell opens files with the system's default application; absent in web mode */
  openPath?: (path: string) => Promise<void>;
  /** remote MCP servers' OAuth tokens, for signing in from the settings screen */
  mcpCredentials?: McpCredentialStore;
  /** the desktop shell relabels its menu in the UI's language */
  onUiLanguage?: (language: 'en' | 'zh') => void;
}

export interface CoreApi {
  handlers: CoreHandlers;
  /** validates and runs one request; never throws */
  invoke(name: unknown, payload: unknown): Promise<InvokeResult<unknown>>;
  /** every stored event of every session, live */
  onEvent(listener: (event: CoreEvent) => void): () => void;
  /** closes what the API itself opened (the settings screen's MCP connections) */
  close(): Promise<void>;
}

const DEFAULT_EVENTS_PAGE = 100_000;

function visionOf(llm: AppSettings['llms'][string]): boolean {
  return llm.vision === 'auto' ? /vision|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|vl\b/i.test(llm.model) : llm.vision;
}

function modelChoices(settings: AppSettings): ModelChoice[] {
  return Object.entries(settings.llms).map(([name, llm]) => ({ name, model: llm.model, vision: visionOf(llm) }));
}

function fileStem(title: string, sessionId: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return slug || sessionId;
}

/** The handlers of every request in the contract, shared by the Electron shell and the web server. */
export function createCoreApi(options: CoreApiOptions): CoreApi {
  const { sessions, store, dataDir, settings } = options;
  const app = createAppHandlers({
    store,
    dataDir,
    settings,
    openPath: options.openPath,
    mcpCredentials: options.mcpCredentials,
  });

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
    startTask: ({ attachments, ...request }) => {
      if (request.sessionId) {
        const session = sessionOrThrow(request.sessionId);
        if (sessions.isRunning(request.sessionId)) {
          throw new CoreApiError('busy', 'This session is still running.', 'Stop it or wait for it to finish.');
        }
        if (attachments?.length) request.task += attachmentNote(saveUploads(session.workspace, attachments));
      }
      const dropped = !request.sessionId && attachments?.length ? attachments : undefined;
      // a new session's workspace exists once start returns; the files land there before its first step runs
      const { sessionId, done } = sessions.start(
        dropped ? { ...request, task: request.task + attachmentNote(plannedUploadPaths(dropped)) } : request,
      );
      if (dropped) saveUploads(sessionOrThrow(sessionId).workspace, dropped);
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
      if (!sessions.answer(sessionId, askId, answer)) {
        throw new CoreApiError(
          'not_waiting',
          'Nothing is waiting for this answer any more.',
          'The question was answered or the run stopped.',
        );
      }
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
      sessionOrThrow(sessionId);
      // a running turn is stopped and its sandbox and browser closed before the rows go
      await sessions.release(sessionId);
      await removeSessionSandbox(
        sessionId,
        cleanupClient(() => (options.runSettings ?? settings.read)().sandbox),
      );
      // only the folder the app created is removed; a folder the user chose stays theirs
      deleteSessionEverywhere(store, dataDir, sessionId);
      return { ok: true };
    },
    exportSession: ({ sessionId, format }) => {
      const session = sessionOrThrow(sessionId);
      // keys typed into settings or set in the environment never leave in an export, even if a tool echoed one
      const secrets = [...collectSecrets(settings.read()), ...environmentSecrets()];
      const stem = fileStem(session.title, sessionId);
      return format === 'json'
        ? {
            filename: `${stem}.json`,
            mimeType: 'application/json',
            content: exportSessionJson(store, sessionId, { secrets }),
          }
        : {
            filename: `${stem}.md`,
            mimeType: 'text/markdown',
            content: exportSessionMarkdown(store, sessionId, { secrets }),
          };
    },
    getSettings: () => maskSecrets(settings.read()),
    updateSettings: ({ settings: incoming }) => {
      settings.write(restoreMaskedSecrets(incoming, settings.read()));
      return maskSecrets(settings.read());
    },
    appInfo: () => {
      const current = (options.runSettings ?? settings.read)();
      return {
        version: options.version,
        shell: options.shell,
        platform: process.platform,
        dataDir,
        models: modelChoices(current),
        defaultModel: current.defaultLlm ?? Object.keys(current.llms)[0],
        runningSessionIds: sessions.runningSessionIds(),
      };
    },
    setUiLanguage: ({ language }) => {
      options.onUiLanguage?.(language);
      return { ok: true };
    },
    ...app.handlers,
    ...createEventWindowHandlers({ store, isRunning: (sessionId) => sessions.isRunning(sessionId) }),
  };

  return {
    handlers,
    invoke: (name, payload) => invokeHandler(handlers, name, payload),
    onEvent: (listener) => sessions.subscribe(listener),
    close: () => app.close(),
  };
}
