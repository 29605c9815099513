import type { Command } from 'commander';
import type { SessionStore } from '../../store/store-api.js';
import { FileKeySecretBox, type SecretBox } from '../../store/secrets.js';

/** What the MCP, MCP-server and A2A commands need from the app, handed in by whoever builds the `manus` program. */
export interface StoreDeps {
  resolveDataDir(options: { dataDir?: string }): string;
  openStore(dataDir: string): SessionStore;
  /** defaults to the key file in the data folder */
  secretBox?(dataDir: string): SecretBox;
}

export interface OpenedData {
  dataDir: string;
  store: SessionStore;
  secrets: SecretBox;
}

/** Opens the data folder named by the global `--data-dir` (or the default) and closes the store afterwards. */
export async function withData<T>(
  deps: StoreDeps,
  command: Command,
  body: (data: OpenedData) => Promise<T> | T,
): Promise<T> {
  const dataDir = deps.resolveDataDir({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  const store = deps.openStore(dataDir);
  try {
    const secrets = deps.secretBox?.(dataDir) ?? FileKeySecretBox.inDataDir(dataDir);
    return await body({ dataDir, store, secrets });
  } finally {
    store.close();
  }
}
