import type { Command } from 'commander';
import type { SessionStore } from '../../store/store-api.js';
import type { SecretBox } from '../../store/secrets.js';
import { openSecretBox } from '../../store/secret-store.js';
import { resolveDeps, type DepsSource } from './deps-source.js';

/** What the MCP, MCP-server and A2A commands need from the app, handed in by whoever builds the `manus` program. */
export interface StoreDeps<S extends SessionStore = SessionStore> {
  resolveDataDir(options: { dataDir?: string }): string;
  openStore(dataDir: string): S;
  /** defaults to the shared secret store (OS keychain, else the key file in the data folder) */
  secretBox?(dataDir: string): SecretBox;
}

export interface OpenedData<S extends SessionStore = SessionStore> {
  dataDir: string;
  store: S;
  secrets: SecretBox;
}

/** Opens the data folder named by the global `--data-dir` (or the default) and closes the store afterwards. */
export async function withData<S extends SessionStore, T>(
  source: DepsSource<StoreDeps<S>>,
  command: Command,
  body: (data: OpenedData<S>) => Promise<T> | T,
): Promise<T> {
  const deps = await resolveDeps(source);
  const dataDir = deps.resolveDataDir({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  const store = deps.openStore(dataDir);
  try {
    const secrets = deps.secretBox?.(dataDir) ?? openSecretBox(dataDir);
    return await body({ dataDir, store, secrets });
  } finally {
    store.close();
  }
}

/** Resolves on Ctrl-C, SIGTERM, or when `closed` resolves (e.g. the stdio client went away). */
export function untilShutdown(closed?: Promise<void>): Promise<void> {
  return new Promise((done) => {
    process.once('SIGINT', () => done());
    process.once('SIGTERM', () => done());
    void closed?.then(done);
  });
}
