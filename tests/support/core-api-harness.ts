import { createCoreApi, type CoreApi, type CoreApiOptions } from '../../src/main/api/core-api.js';
import { storedSettings } from '../../src/main/api/settings-access.js';
import { FileKeySecretBox } from '../../src/main/store/secrets.js';
import type { CoreHarness } from './core-harness.js';

/** The contract's handlers over a test core, as `manus serve` builds them (web shell, settings in the store). */
export function coreApiOver(harness: CoreHarness, options: Partial<CoreApiOptions> = {}): CoreApi {
  return createCoreApi({
    sessions: harness.service,
    store: harness.store,
    dataDir: harness.dataDir,
    shell: 'web',
    version: 'test',
    settings: storedSettings(harness.store, FileKeySecretBox.inDataDir(harness.dataDir)),
    ...options,
  });
}

/** One request through the contract (validated as over IPC or HTTP): its reply, or an error with the core's message. */
export async function invokeOk<T>(api: CoreApi, name: string, payload: unknown): Promise<T> {
  const result = await api.invoke(name, payload);
  if (!result.ok) throw new Error(`${name} failed: ${result.error.message}`);
  return result.value as T;
}
