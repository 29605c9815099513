import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmOverrides } from '../config/llm-overrides.js';
import type { RunEnvironmentOptions } from './turn-options.js';

/** What a command's `--model`, `--base-url`, `--sandbox` and `--engine` change in the core it runs. */
export interface RunEnvironment {
  llmOverrides: LlmOverrides;
  adjust: (settings: AppSettings) => AppSettings;
}

/** The run environment flags as core options: the model over env and saved settings, the sandbox over the saved one. */
export function runEnvironmentOf(options: RunEnvironmentOptions): RunEnvironment {
  return {
    llmOverrides: { model: options.model, baseUrl: options.baseUrl },
    adjust: (settings) => ({
      ...settings,
      sandbox: {
        ...settings.sandbox,
        mode: options.sandbox ?? settings.sandbox.mode,
        engine: options.engine ?? settings.sandbox.engine,
      },
    }),
  };
}
