import { BUILTIN_AGENTS } from '../../src/main/agent/agent-catalog.js';
import { createCoreApi, type CoreApi } from '../../src/main/api/core-api.js';
import { BUILTIN_MODES } from '../../src/main/flow/mode-catalog.js';
import { createLlm } from '../../src/main/llm/client.js';
import { SessionService } from '../../src/main/session/session-service.js';
import type { Store } from '../../src/main/store/store.js';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';

/**
 * The contract's API over a store with default settings, as `manus serve` builds it, for benches that serve the app;
 * `close` also releases its sessions.
 */
export function webCoreApi(store: Store, dataDir: string): CoreApi {
  const settings = AppSettingsSchema.parse({});
  const sessions = new SessionService({
    agents: BUILTIN_AGENTS,
    modes: BUILTIN_MODES,
    store,
    dataDir,
    settings: () => settings,
    llmFactory: createLlm,
  });
  const api = createCoreApi({
    sessions,
    store,
    dataDir,
    shell: 'web',
    version: 'bench',
    settings: { read: () => settings, write: () => undefined },
  });
  return {
    ...api,
    close: async () => {
      await api.close();
      await sessions.close();
    },
  };
}
