import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { BrowserSession } from '../browser/browser-session.js';
import type { DocumentReader } from '../document/document-reader.js';
import type { KnowledgeStore } from '../store/knowledge-store.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { Llm } from '../llm/types.js';
import type { OutboundFetch } from '../net/guarded-fetch.js';
import type { Sandbox } from '../sandbox/sandbox.js';
import type { ToolGate } from './tool-gate.js';

/** Previous contents per path relative to the workspace, newest last; undefined: the file did not exist. */
export type EditHistory = Map<string, (string | undefined)[]>;

/** A part of a session created at its first use and kept until the session is released (its sandbox, its browser). */
export interface SessionPart<T> {
  /** the part, created on first use; concurrent callers share one creation, and a failed one is tried again */
  get(): Promise<T>;
  /** whether it was created (or is being created) */
  has(): boolean;
  /** closes it (a browser that died) so the next `get` creates it anew */
  reset(): Promise<void>;
}

/**
 * What a live session offers the tools, agents and MCP connections that work for it. The session service builds it
 * once per session and passes it down; a tool's context type names the parts of it the tool uses.
 */
export interface SessionContext {
  readonly sessionId: string;
  /** host path of the session workspace */
  readonly workspace: string;
  /** the settings of the current turn */
  settings(): AppSettings;
  /** the model of the current turn; none before the session's first turn */
  llm(): Llm | undefined;
  readonly sandbox: SessionPart<Sandbox>;
  readonly browser: SessionPart<BrowserSession>;
  /** reads documents into text, in a container of their own (shared by the sessions of this process) */
  readonly documents: SessionPart<DocumentReader>;
  /** the folders indexed for search_files; none where the host keeps no store */
  readonly knowledge: KnowledgeStore | undefined;
  /** questions to the person (emitted as `ask` events) */
  readonly human: HumanChannel;
  /** the approval policy, for actions outside the agent's tool loop (an MCP server's sampling request) */
  readonly gate: ToolGate;
  /**
   * `fetch` for a request the agent causes outside the browser (a search result's page, an MCP server's sign-in
   * metadata), under the egress policy with this turn's browser.allowPrivateNetwork; `trustedOrigins` are the
   * person's own (the MCP server they configured), reachable wherever they are
   */
  readonly guardedFetch: OutboundFetch;
  /** str_replace_editor's undo history */
  readonly edits: EditHistory;
}
