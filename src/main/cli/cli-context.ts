import { resolveDataDir } from '../store/data-dir.js';
import { openStore } from '../store/store.js';
import type { SessionStore } from '../store/store-api.js';
import type { SecretBox } from '../store/secrets.js';
import { openSecretBox } from '../store/secret-store.js';
import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { LlmOverrides } from '../config/llm-overrides.js';
import { createAppCore, type AppCore } from '../app/app-core.js';
import { recoverDeadRuns } from '../session/run-markers.js';

export interface CliContext {
  dataDir: string;
  store: SessionStore;
  /** encrypts secrets in saved settings: the store the app uses too (OS keychain, else a key file) */
  secrets: SecretBox;
  close(): void;
}

/** Opens the data folder and the store the app also uses. */
export function openCliContext(options: { dataDir?: string }): CliContext {
  const dataDir = resolveDataDir({ dataDir: options.dataDir });
  const store = openStore(dataDir);
  recoverDeadRuns(store, dataDir);
  return { dataDir, store, secrets: openSecretBox(dataDir), close: () => store.close() };
}

export interface CoreOptions {
  llm?: LlmOverrides;
  /** per-run settings changes (sandbox mode, max steps...) */
  adjust?: (settings: AppSettings) => AppSettings;
  humanAvailable: boolean;
}

/** The agent core over the CLI's data folder. */
export function createCliCore(context: CliContext, options: CoreOptions): AppCore {
  return createAppCore({
    dataDir: context.dataDir,
    store: context.store,
    secrets: context.secrets,
    humanAvailable: options.humanAvailable,
    llmOverrides: options.llm,
    adjust: options.adjust,
  });
}
