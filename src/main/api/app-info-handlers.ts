import type { AppInfo, CoreHandlers, ModelChoice } from '../../shared/contract.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { SessionRunner } from './session-handlers.js';

/** model names that take images when a model's `vision` setting is `auto` */
const VISION_MODEL = /vision|gpt-4o|gpt-4\.1|gpt-5|claude|gemini|vl\b/i;

/** The largest upload the settings allow, in bytes. */
export function uploadLimitBytes(settings: AppSettings): number {
  return settings.uploads.maxFileMb * 1024 * 1024;
}

export type AppInfoHandlers = Pick<CoreHandlers, 'appInfo' | 'setUiLanguage'>;

function visionOf(llm: AppSettings['llms'][string]): boolean {
  return llm.vision === 'auto' ? VISION_MODEL.test(llm.model) : llm.vision;
}

function modelChoices(settings: AppSettings): ModelChoice[] {
  return Object.entries(settings.llms).map(([name, llm]) => ({ name, model: llm.model, vision: visionOf(llm) }));
}

/** What the UI learns about the app it runs in (version, host, models, running runs), and its language for the host. */
export function createAppInfoHandlers(options: {
  sessions: Pick<SessionRunner, 'runningSessionIds'>;
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
        uploadLimitBytes: uploadLimitBytes(current),
      };
    },
    setUiLanguage: ({ language }) => {
      onUiLanguage?.(language);
      return { ok: true };
    },
  };
}
