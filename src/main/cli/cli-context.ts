import { resolveDataDir } from '../store/data-dir.js';
import { openStore } from '../store/store.js';
import type { SessionStore } from '../store/store-api.js';
import type { SecretBox } from '../store/secrets.js';
import { openSecretBox } from '../store/secret-store.js';
import { recoverDeadRuns } from '../session/run-markers.js';

export interface CliContext {
  dataDir: string;
  store: SessionStore;
  /** encrypts secrets in saved settings: the store the app uses too (OS keychain, else a key file) */
  readonly secrets: SecretBox;
  close(): void;
}

/** Opens the data folder and the store the app also uses. */
export function openCliContext(options: { dataDir?: string }): CliContext {
  const dataDir = resolveDataDir({ dataDir: options.dataDir });
  // a run's events are written by a thread of their own, started with the first of them (listing sessions never does)
  const store = openStore(dataDir, { writeEventsInBackground: true });
  recoverDeadRuns(store, dataDir);
  let secrets: SecretBox | undefined;
  return {
    dataDir,
    store,
    // opened on first use: it may ask the OS keychain, which listing sessions never needs
    get secrets() {
      return (secrets ??= openSecretBox(dataDir));
    },
    close: () => store.close(),
  };
}
