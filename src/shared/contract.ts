import { z } from 'zod';
import { CoreEventSchema, SessionInfoSchema, SessionModeSchema, SessionStatusSchema } from './events.js';
import { AppSettingsSchema } from './settings/app-settings.js';
import { rejectingUnknownKeys } from './settings/settings-keys.js';
import type { RequestName } from './contract/names.js';
import {
  ImportMcpRequestSchema,
  ImportedMcpSchema,
  ConfirmMcpRequestSchema,
  LlmTestReportSchema,
  McpServerStateSchema,
  SandboxBuildJobSchema,
  SandboxBuildMethodSchema,
  SandboxStateSchema,
  TestLlmRequestSchema,
  WorkspaceFileSchema,
  WorkspaceListingSchema,
} from './contract/app-requests.js';
import { EventWindowRequestSchema, EventWindowSchema, SessionOutlineSchema } from './contract/event-window.js';
import {
  AppendUploadReplySchema,
  AppendUploadRequestSchema,
  BeginUploadReplySchema,
  BeginUploadRequestSchema,
  UploadIdsSchema,
  UploadRefSchema,
} from './contract/uploads.js';
import {
  CheckWorkspaceFolderRequestSchema,
  PickedFolderSchema,
  RecentWorkspacesSchema,
  WorkspaceFolderSchema,
} from './contract/workspace-folders.js';

/**
 * The one contract between the UI and the core: every request (name, request schema, reply schema) and the
 * event stream. Electron IPC and HTTP+WebSocket both carry exactly this table.
 */

const SessionRef = z.object({ sessionId: z.string().min(1) });
const Ok = z.object({ ok: z.literal(true) });

export const StartTaskRequestSchema = z.object({
  task: z.string().trim().min(1, 'the task is empty'),
  sessionId: z.string().optional(),
  mode: SessionModeSchema.optional(),
  agents: z.array(z.string()).optional(),
  workspace: z.string().optional(),
  model: z.string().optional(),
  maxSteps: z.number().int().positive().optional(),
  /** flows: run independent plan steps at the same time */
  parallel: z.number().int().positive().max(16).optional(),
  /** finished uploads (beginUpload/appendUpload) attached to the message: moved into the workspace before the run */
  uploads: UploadIdsSchema.optional(),
});
export type StartTaskRequest = z.infer<typeof StartTaskRequestSchema>;

export const SessionSummarySchema = z.object({ session: SessionInfoSchema, running: z.boolean() });
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const SearchHitSchema = z.object({ session: SessionInfoSchema, snippet: z.string() });

export const ExportFormatSchema = z.enum(['md', 'json']);
export const ExportedSessionSchema = z.object({ filename: z.string(), mimeType: z.string(), content: z.string() });
export type ExportedSession = z.infer<typeof ExportedSessionSchema>;

export const ModelChoiceSchema = z.object({ name: z.string(), model: z.string(), vision: z.boolean() });
export type ModelChoice = z.infer<typeof ModelChoiceSchema>;

export const AppInfoSchema = z.object({
  version: z.string(),
  /** which transport the renderer is on */
  shell: z.enum(['electron', 'web']),
  platform: z.string(),
  dataDir: z.string(),
  models: z.array(ModelChoiceSchema),
  defaultModel: z.string().optional(),
  runningSessionIds: z.array(z.string()),
  /** the agents a flow's steps may run on (what `--agents` takes) */
  agents: z.array(z.string()),
  /** the agents a flow uses when the person chooses none */
  defaultFlowAgents: z.array(z.string()),
  /** the largest file an upload may be (the uploads.maxFileMb setting) */
  uploadLimitBytes: z.number().int().positive(),
});
export type AppInfo = z.infer<typeof AppInfoSchema>;

/** Settings as the renderer sees them: secrets replaced by a mask (see SECRET_MASK). */
export const MaskedSettingsSchema = AppSettingsSchema;
export type MaskedSettings = z.infer<typeof MaskedSettingsSchema>;
/** A secret field sent back unchanged (masked) keeps the stored value. */
export { SECRET_MASK } from './settings/secret-mask.js';

function request<Req extends z.ZodType, Reply extends z.ZodType>(req: Req, reply: Reply) {
  return { request: req, reply };
}

export const CONTRACT = {
  startTask: request(StartTaskRequestSchema, SessionRef),
  cancel: request(SessionRef, Ok),
  resume: request(SessionRef, SessionRef),
  /** the session's last message sent again, in its mode: the way back after a failed or stopped turn */
  retryTurn: request(SessionRef, SessionRef),
  answer: request(SessionRef.extend({ askId: z.string().min(1), answer: z.string() }), Ok),
  listSessions: request(
    z.object({
      limit: z.number().int().positive().max(1000).optional(),
      offset: z.number().int().nonnegative().optional(),
      status: SessionStatusSchema.optional(),
    }),
    z.array(SessionSummarySchema),
  ),
  getSession: request(SessionRef, SessionSummarySchema.nullable()),
  getEvents: request(
    SessionRef.extend({
      afterSeq: z.number().int().nonnegative().optional(),
      limit: z.number().int().positive().optional(),
    }),
    z.array(CoreEventSchema),
  ),
  /** a bounded run of a session's events: its last ones, or those before or after a seq */
  getEventWindow: request(EventWindowRequestSchema, EventWindowSchema),
  /** what a session view shows before its events: the row, seq range, running flag and plan */
  getSessionOutline: request(SessionRef, SessionOutlineSchema),
  searchSessions: request(
    z.object({ query: z.string().min(1), limit: z.number().int().positive().max(200).optional() }),
    z.array(SearchHitSchema),
  ),
  renameSession: request(SessionRef.extend({ title: z.string().trim().min(1).max(200) }), SessionInfoSchema),
  deleteSession: request(SessionRef, Ok),
  exportSession: request(SessionRef.extend({ format: ExportFormatSchema }), ExportedSessionSchema),
  getSettings: request(z.object({}), MaskedSettingsSchema),
  /** a key the settings do not have is refused, naming the closest one */
  updateSettings: request(z.object({ settings: rejectingUnknownKeys(AppSettingsSchema) }), MaskedSettingsSchema),
  appInfo: request(z.object({}), AppInfoSchema),
  testLlm: request(TestLlmRequestSchema, LlmTestReportSchema),
  mcpStatus: request(z.object({}), z.array(McpServerStateSchema)),
  /**
   * adds the file's valid servers to the settings (an existing name is replaced), stdio ones unconfirmed; replies
   * with them, masked, and the entries skipped with why
   */
  importMcpConfig: request(ImportMcpRequestSchema, ImportedMcpSchema),
  /** lets an unconfirmed stdio server start, if it still runs the launch the person was shown */
  confirmMcpServer: request(ConfirmMcpRequestSchema, Ok),
  /** starts signing in to a remote server in the browser; mcpStatus shows the progress */
  mcpSignIn: request(z.object({ name: z.string().min(1) }), Ok),
  mcpSignInCancel: request(z.object({ name: z.string().min(1) }), Ok),
  /** forgets the server's tokens and registered client */
  mcpSignOut: request(z.object({ name: z.string().min(1) }), Ok),
  sandboxStatus: request(z.object({}), SandboxStateSchema),
  buildSandbox: request(z.object({ method: SandboxBuildMethodSchema }), SandboxBuildJobSchema),
  listWorkspace: request(SessionRef, WorkspaceListingSchema),
  readWorkspaceFile: request(SessionRef.extend({ path: z.string().min(1).max(4096) }), WorkspaceFileSchema),
  /** desktop app only: opens a workspace file (or the folder, path '.') with the system's default application */
  openWorkspaceFile: request(SessionRef.extend({ path: z.string().min(1).max(4096) }), Ok),
  /** the language the UI shows, so the desktop app's menu follows it (nothing to do in web mode) */
  setUiLanguage: request(z.object({ language: z.enum(['en', 'zh']) }), Ok),
  /** finished uploads dropped into the workspace panel, moved into the session's uploads folder */
  uploadFiles: request(SessionRef.extend({ uploads: UploadIdsSchema }), z.object({ paths: z.array(z.string()) })),
  /** an upload's name and size (refused over the limit); its chunks follow with appendUpload */
  beginUpload: request(BeginUploadRequestSchema, BeginUploadReplySchema),
  appendUpload: request(AppendUploadRequestSchema, AppendUploadReplySchema),
  /** drops an upload not sent yet (the attachment was removed) */
  cancelUpload: request(UploadRefSchema, Ok),
  /** checks a folder typed or picked for a new session's workspace; refused with a code saying why */
  checkWorkspaceFolder: request(CheckWorkspaceFolderRequestSchema, WorkspaceFolderSchema),
  /** folders sessions were started in lately, newest first */
  recentWorkspaces: request(z.object({}), RecentWorkspacesSchema),
  /** desktop app only: the system's folder dialog */
  pickWorkspaceFolder: request(z.object({}), PickedFolderSchema),
} as const;

export type Contract = typeof CONTRACT;
// REQUEST_NAMES (zod-free, for the preload) and the table must list the same names
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const namesMatch: Same<keyof Contract, RequestName> = true;
void namesMatch;

export type RequestOf<K extends RequestName> = z.input<Contract[K]['request']>;
export type ParsedRequestOf<K extends RequestName> = z.infer<Contract[K]['request']>;
export type ReplyOf<K extends RequestName> = z.infer<Contract[K]['reply']>;

/** What the core implements: one handler per request; a missing one fails to compile. */
export type CoreHandlers = { [K in RequestName]: (request: ParsedRequestOf<K>) => Promise<ReplyOf<K>> | ReplyOf<K> };

/** An error as it crosses the boundary: a code the UI can act on, a readable message and, when known, the fix. */
export const CoreErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string().optional(),
});
export type CoreError = z.infer<typeof CoreErrorSchema>;

/** Every reply travels in this envelope so errors keep their code over IPC and HTTP alike. */
export type InvokeResult<T> = { ok: true; value: T } | { ok: false; error: CoreError };

export const EventStreamSchema = CoreEventSchema;

export { REQUEST_NAMES, isRequestName, type RequestName } from './contract/names.js';

export * from './contract/app-requests.js';
export * from './contract/event-window.js';
export * from './contract/uploads.js';
export * from './contract/workspace-folders.js';
