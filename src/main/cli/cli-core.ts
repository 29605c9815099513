import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmOverrides } from '../config/llm-overrides.js';
import { createAppCore, type AppCore } from '../app/app-core.js';
import type { CliContext } from './cli-context.js';

export interface CoreOptions {
  llmOverrides?: LlmOverrides;
  /** per-run settings changes (sandbox mode, max steps...) */
  adjust?: (settings: AppSettings) => AppSettings;
  humanAvailable: boolean;
  hearOtherProcesses?: boolean;
}

/** The agent core over the CLI's data folder. */
export function createCliCore(context: CliContext, options: CoreOptions): AppCore {
  return createAppCore({
    dataDir: context.dataDir,
    store: context.store,
    secrets: context.secrets,
    humanAvailable: options.humanAvailable,
    llmOverrides: options.llmOverrides,
    adjust: options.adjust,
    hearOtherProcesses: options.hearOtherProcesses,
  });
}
