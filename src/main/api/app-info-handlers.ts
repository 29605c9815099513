import type { AppInfo, CoreHandlers, ModelChoice } from '../../shared/contract.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import { supportsVision } from '../llm/model-traits.js';
import type { SessionRunner } from './session-handlers.js';
import { DEFAULT_FLOW_AGENTS } from '../flow/flow-modes.js';

/** The largest upload the settings allow, in bytes. */
export function uploadLimitBytes(settings: AppSettings): number {
  return settings.uploads.maxFileMb * 1024 * 1024;
}

export type AppInfoHandlers = Pick<CoreHandlers, 'appInfo' | 'setUiLanguage'>;

function modelChoices(settings: AppSettings): ModelChoice[] {
  return Object.entries(settings.llms).map(([name, llm]) => ({ name, model: llm.model, vision: supportsVision(llm) }));
}

/** What the UI learns about the app it runs in (version, host, models, running runs), and its language for the host. */
export function createAppInfoHandlers(options: {
  sessions: Pick<SessionRunner, 'runningSessionIds' | 'agentNames'>;
  dataDir: string;
  shell: AppInfo['shell'];
  version: string;
  /** the settings runs use: the model list shows what a run would get */
  runSettings: () => AppSettings;
  /** the desktop shell relabels its menu in the UI's language */
  onUiLanguage?: (language: 'en' | 'zh') => void;
}): AppInfoHandlers {
  const { sessions, dataDir, shell, version, runSettings, onUiLanguage } = options;
  return {
    appInfo: () => {
      const current = runSettings();
      return {
        version,
        shell,
        platform: process.platform,
        dataDir,
        models: modelChoices(current),
        defaultModel: current.defaultLlm ?? Object.keys(current.llms)[0],
        runningSessionIds: sessions.runningSessionIds(),
        agents: sessions.agentNames(),
        defaultFlowAgents: DEFAULT_FLOW_AGENTS,
        uploadLimitBytes: uploadLimitBytes(current),
      };
    },
    setUiLanguage: ({ language }) => {
      onUiLanguage?.(language);
      return { ok: true };
    },
  };
}
