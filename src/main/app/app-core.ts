import { watchExternalSessionChanges } from '../session/external-session-changes.js';
import { join } from 'node:path';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import {
  ALL_SETTINGS,
  describeSettingsProblem,
  loadSettings,
  readSettings,
  saveSettings,
} from '../config/settings-store.js';
import { applyLlmOverrides, llmOverridesFromEnv, type LlmOverrides } from '../config/llm-overrides.js';
import { createLlm } from '../llm/client.js';
import { ToolRefusals } from '../llm/tool-fallback.js';
import { closeSharedBrowsers } from '../browser/browser-launcher.js';
import { SessionMcp } from '../mcp/session-mcp.js';
import { credentialStoreIn } from '../mcp/oauth/credential-store.js';
import { sweepOrphanSandboxesInBackground, type RemovedSandbox } from '../sandbox/orphan-sandboxes.js';
import { parkSandbox, unparkSandbox } from '../sandbox/session-sandbox.js';
import { SessionService } from '../session/session-service.js';
import type { SecretBox } from '../store/secrets.js';
import type { SessionStore } from '../store/store-api.js';
import { BUILTIN_AGENTS, type AgentCatalog } from '../agent/agent-catalog.js';
import { BUILTIN_MODES, type ModeCatalog } from '../flow/mode-catalog.js';
import { noticeEvent } from '../../shared/notice-codes.js';

export interface AppCoreOptions {
  dataDir: string;
  store: SessionStore;
  secrets: SecretBox;
  /** whether a person can answer questions and approvals (a TTY, a window, a web page) */
  humanAvailable: boolean;
  /** LLM flags of this process (over env vars, over saved settings) */
  llmOverrides?: LlmOverrides;
  /** per-process changes to the settings (e.g. `--sandbox local`) */
  adjust?: (settings: AppSettings) => AppSettings;
  /** the agents sessions may run (default: the built-in ones) */
  agents?: AgentCatalog;
  /** how each session mode runs a turn (default: agent, planning flow, Plan-Act) */
  modes?: ModeCatalog;
  /** a window or web clients stay open: sessions other processes create or rename are published to them */
  hearOtherProcesses?: boolean;
}

/** The agent core as every host runs it (CLI, web server, Electron): session service, live settings, MCP. */
export interface AppCore {
  dataDir: string;
  store: SessionStore;
  secrets: SecretBox;
  service: SessionService;
  mcp: SessionMcp;
  /** the settings runs use: saved ones (read fresh, so changes apply to the next turn) plus overrides */
  runSettings(): AppSettings;
  /** sandbox containers removed at start: their owner process is gone, or their session (none when Docker is off) */
  orphanSandboxesRemoved: Promise<RemovedSandbox[]>;
  close(): Promise<void>;
}

/** The settings a run uses: the saved ones (secrets decrypted), then env vars, then this process's flags. */
export function runSettingsFor(
  options: Pick<AppCoreOptions, 'store' | 'secrets' | 'llmOverrides' | 'adjust'>,
): AppSettings {
  const saved = loadSettings(options.store, options.secrets);
  const withLlm = applyLlmOverrides(saved, llmOverridesFromEnv(), options.llmOverrides ?? {});
  return options.adjust ? options.adjust(withLlm) : withLlm;
}

export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir, store, secrets } = options;
  const runSettings = (): AppSettings => runSettingsFor(options);
  const mcp = new SessionMcp(join(dataDir, 'logs'), credentialStoreIn(dataDir, secrets));
  // a provider that refused the tools parameter once is not asked again by the session's later turns
  const toolRefusals = new ToolRefusals();
  const service = new SessionService({
    store,
    dataDir,
    settings: runSettings,
    agents: options.agents ?? BUILTIN_AGENTS,
    modes: options.modes ?? BUILTIN_MODES,
    llmFactory: (config) => createLlm(config, { toolRefusals }),
    humanAvailable: options.humanAvailable,
    extraTools: mcp.extraTools,
    onSessionLive: mcp.open,
    onSessionReleased: mcp.close,
    prepareRun: async ({ session, emit }) => {
      const sessionId = session.sessionId;
      unparkSandbox(sessionId);
      // a broken setting does not stop the run: it runs on the default, and the person is told how to fix it
      for (const problem of readSettings(store, secrets).problems) {
        const text = describeSettingsProblem(problem);
        emit(
          problem.key === ALL_SETTINGS
            ? noticeEvent(sessionId, 'warning', 'settings_unreadable', text)
            : noticeEvent(sessionId, 'warning', 'settings_problem', text, { setting: problem.key }),
        );
      }
      const manager = await mcp.ready(session);
      for (const status of manager.statuses()) {
        if (status.status !== 'failed') continue;
        const error = status.error ?? 'it failed to start';
        emit(
          noticeEvent(sessionId, 'warning', 'mcp_failed', `MCP server "${status.name}" is not available: ${error}`, {
            server: status.name,
            error,
            ...(status.failure ? { reason: status.failure } : {}),
          }),
        );
      }
    },
    rememberAlwaysAllow: (toolName) => {
      const saved = loadSettings(store, secrets);
      const alwaysAllow = [...new Set([...saved.approval.alwaysAllow, toolName])];
      saveSettings(store, secrets, { ...saved, approval: { ...saved.approval, alwaysAllow } });
    },
  });
  // a finished turn's warm sandbox counts against sandbox.maxIdleSandboxes (serve and the app keep many sessions)
  const stopParking = service.subscribe((event) => {
    if (event.type === 'done') void parkSandbox(event.sessionId, runSettings().sandbox.maxIdleSandboxes);
  });
  // renames and sessions made by other processes (the CLI) reach this host's windows and clients too
  const stopWatchingOthers = options.hearOtherProcesses ? watchExternalSessionChanges(store, service) : () => undefined;
  // containers of processes that died (killed runs, crashed servers) go now, in the background: Docker may be off
  const liveSessionIds = store.listSessions().map((session) => session.id);
  const orphanSandboxesRemoved = sweepOrphanSandboxesInBackground({ dataDir, liveSessionIds });
  return {
    dataDir,
    store,
    secrets,
    service,
    mcp,
    runSettings,
    orphanSandboxesRemoved,
    close: async () => {
      stopParking();
      stopWatchingOthers();
      await service.close();
      // sessions release their browser contexts; whatever browser process is left goes with the app
      await closeSharedBrowsers();
    },
  };
}
