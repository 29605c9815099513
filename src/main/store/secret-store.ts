import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { osKeychain, type Keychain } from './keychain.js';
import { AesGcmSecretBox, FileKeySecretBox, SECRET_KEY_FILE_NAME, randomSecretKey, type SecretBox } from './secrets.js';

export const KEYCHAIN_SERVICE = 'Manus Desktop';
/** `<dataDir>/secret.keychain` names this data folder's key in the keychain (so moving the folder keeps it) */
export const KEYCHAIN_ACCOUNT_FILE_NAME = 'secret.keychain';
export const KEYCHAIN_BOX_KIND = 'keychain';

/** set to keep the key in the key file only (a headless server; a test run that must not fill the login keychain) */
export const NO_KEYCHAIN_ENV = 'MANUS_NO_KEYCHAIN';

export interface SecretStoreOptions {
  /** default: the OS keychain, unless MANUS_NO_KEYCHAIN is set */
  keychain?: Keychain;
  /** boxes of this host's earlier schemes (the desktop app's safeStorage) whose values are still read */
  older?: readonly SecretBox[];
}

function readAccount(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function keyFrom(stored: string | undefined): Buffer | undefined {
  const key = stored === undefined ? undefined : Buffer.from(stored, 'base64');
  return key?.length === 32 ? key : undefined;
}

function tryGet(keychain: Keychain, account: string): string | undefined {
  try {
    return keychain.get(KEYCHAIN_SERVICE, account);
  } catch {
    return undefined;
  }
}

/**
 * This data folder's key from the keychain, put there on first use; undefined when no keychain holds it.
 * A key the keychain once held and no longer answers for is never replaced: the values stay readable once it is back.
 */
function keychainKey(keychain: Keychain, dataDir: string): Buffer | undefined {
  const accountFile = path.join(dataDir, KEYCHAIN_ACCOUNT_FILE_NAME);
  const known = readAccount(accountFile);
  if (known) return keyFrom(tryGet(keychain, known));
  const account = `data-key:${randomUUID()}`;
  try {
    keychain.set(KEYCHAIN_SERVICE, account, randomSecretKey().toString('base64'));
  } catch {
    return undefined;
  }
  if (!keyFrom(tryGet(keychain, account))) return undefined;
  try {
    // 'wx': of two processes starting at once, the first to name its key wins and the other uses that one
    fs.writeFileSync(accountFile, `${account}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return keyFrom(tryGet(keychain, readAccount(accountFile) ?? account));
  }
  return keyFrom(tryGet(keychain, account));
}

/** The key file's box, for reading values saved before the keychain was used; none when the file is absent or bad. */
function existingKeyFileBox(keyFile: string): SecretBox[] {
  if (!fs.existsSync(keyFile)) return [];
  try {
    return [new FileKeySecretBox(keyFile)];
  } catch {
    return [];
  }
}

/**
 * The one secret store of the app and the CLI: AES-256-GCM with a key kept in the OS keychain, or in
 * `<dataDir>/secret.key` (mode 0600) where no keychain is usable. Both read what the other saved.
 */
export function openSecretBox(dataDir: string, options: SecretStoreOptions = {}): SecretBox {
  const older = options.older ?? [];
  const keyFile = path.join(dataDir, SECRET_KEY_FILE_NAME);
  const keychain = options.keychain ?? (process.env[NO_KEYCHAIN_ENV] ? undefined : osKeychain);
  const key = keychain && keychainKey(keychain, dataDir);
  if (!key) return new FileKeySecretBox(keyFile, older);
  return new AesGcmSecretBox(KEYCHAIN_BOX_KIND, key, `the "${KEYCHAIN_SERVICE}" key in the OS keychain`, [
    ...existingKeyFileBox(keyFile),
    ...older,
  ]);
}
