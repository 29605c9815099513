import type { CoreEventInput } from '../../shared/events.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { EgressNetwork } from '../net/egress-network.js';
import { outboundFetchWith } from '../net/guarded-fetch.js';
import { openSessionBrowser } from '../browser/session-browser.js';
import { documentReaderFor } from '../document/document-reader.js';
import type { HumanChannel } from '../human/human-channel.js';
import type { Llm } from '../llm/types.js';
import { ownerLabelOf } from '../sandbox/container-spec.js';
import { LOCAL_SANDBOX_WARNING } from '../sandbox/local-sandbox.js';
import {
  closeSessionSandbox,
  coolDownSessionSandbox,
  createSessionSandbox,
  warmUpSessionSandbox,
} from '../sandbox/session-sandbox.js';
import type { TurnParts } from '../flow/mode-parts.js';
import type { KnowledgeStore } from '../store/knowledge-store.js';
import type { SessionContext } from '../tool/session-context.js';
import type { ToolGate } from '../tool/tool-gate.js';
import { lazyPart } from './lazy-part.js';
import { noticeEvent } from '../../shared/notice-codes.js';

export interface LiveSessionContextOptions {
  sessionId: string;
  workspace: string;
  /** the data folder the session belongs to (its containers are labelled with it) */
  dataDir?: string;
  settings: () => AppSettings;
  llm: () => Llm | undefined;
  human: HumanChannel;
  gate: ToolGate;
  emit: (event: CoreEventInput) => void;
  /** the store's knowledge index, searched by search_files */
  knowledge?: KnowledgeStore;
  /** a resolver or connector for the egress policy instead of the system's (tests give names addresses) */
  egressNetwork?: Partial<EgressNetwork>;
}

/** Parts a turn started early; `settle` at the turn's end stops the start and closes what no tool used. */
export interface PartsWarmUp {
  settle(): Promise<void>;
}

/** A session's context as the session service holds it: released (sandbox, browser closed) with the session. */
export interface LiveSessionContext extends SessionContext {
  /** starts the parts the turn will need while its first model call runs; failures stay quiet until a tool needs them */
  warmUp(parts: TurnParts): PartsWarmUp;
  release(): Promise<void>;
}

/** Builds a session's context; its sandbox and browser are made at their first use, with the settings of that turn. */
export function createLiveSessionContext(options: LiveSessionContextOptions): LiveSessionContext {
  const { sessionId, workspace, dataDir, emit } = options;
  const sandbox = lazyPart(() => {
    const created = createSessionSandbox({ sessionId, workspace, settings: options.settings().sandbox, dataDir });
    // nothing is isolated in local mode: the session is told once, when its first code runs
    if (created.kind === 'local') {
      emit(noticeEvent(sessionId, 'warning', 'local_sandbox', LOCAL_SANDBOX_WARNING));
    }
    return created;
  }, closeSessionSandbox);
  const browser = lazyPart(
    () =>
      openSessionBrowser({
        settings: options.settings().browser,
        workspace,
        workspaceQuotaMb: () => options.settings().sandbox.workspaceQuotaMb,
        ...(dataDir ? { dataDir } : {}),
        ...(options.egressNetwork ? { egressNetwork: options.egressNetwork } : {}),
      }),
    (session) => session.close(),
  );
  // the reader is the process's, shared by its sessions: it closes itself when idle, not with one session
  const documents = lazyPart(
    () => documentReaderFor(options.settings().sandbox, dataDir ? ownerLabelOf(dataDir) : undefined),
    () => undefined,
  );
  let settling: Promise<void> | undefined;
  const warmUp = (parts: TurnParts): PartsWarmUp => {
    const stop = new AbortController();
    // local mode runs on the host: nothing slow to start, and its warning belongs to the first code that runs
    const sandboxWarm =
      parts.sandbox && options.settings().sandbox.mode === 'docker'
        ? sandbox.warm().then((made) => warmUpSessionSandbox(made, stop.signal))
        : undefined;
    const browserWarm = parts.browser ? browser.warm() : undefined;
    const started = Promise.allSettled([sandboxWarm, browserWarm]);
    return {
      settle: () => {
        stop.abort();
        settling = started.then(async () => {
          if (sandboxWarm && sandbox.has()) await coolDownSessionSandbox(await sandbox.get());
          await browser.closeIfUnused();
        });
        return settling;
      },
    };
  };
  return {
    sessionId,
    workspace,
    settings: options.settings,
    llm: options.llm,
    sandbox,
    browser,
    documents,
    knowledge: options.knowledge,
    human: options.human,
    gate: options.gate,
    guardedFetch: outboundFetchWith(() => options.settings().browser.allowPrivateNetwork, options.egressNetwork),
    edits: new Map(),
    warmUp,
    release: async () => {
      await settling?.catch(() => undefined);
      await Promise.all([browser.close(), sandbox.close()]);
    },
  };
}
