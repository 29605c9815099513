import type { CoreHandlers } from '../../shared/contract.js';
import { testConnection } from '../llm/connection.js';
import { restoreMaskedSecrets } from '../store/settings-secrets.js';
import type { SettingsAccess } from './settings-access.js';

/** how long a connection test waits for the model's answer */
const TEST_LLM_TIMEOUT_MS = 30_000;

export type LlmHandlers = Pick<CoreHandlers, 'testLlm'>;

/** The model settings form's connection test. */
export function createLlmHandlers({ settings }: { settings: SettingsAccess }): LlmHandlers {
  return {
    testLlm: async ({ name, config }) => {
      // a key left masked in the form is the stored one
      const stored = settings.read();
      const restored = name ? restoreMaskedSecrets({ llms: { [name]: config } }, stored).llms[name]! : config;
      const started = Date.now();
      const report = await testConnection(restored, { signal: AbortSignal.timeout(TEST_LLM_TIMEOUT_MS) });
      return { ...report, elapsedMs: Date.now() - started };
    },
  };
}
