import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { readSettings, saveSettings } from '../../src/main/config/settings-store.js';
import type { Keychain } from '../../src/main/store/keychain.js';
import { osKeychain } from '../../src/main/store/keychain.js';
import {
  KEYCHAIN_ACCOUNT_FILE_NAME,
  KEYCHAIN_BOX_KIND,
  KEYCHAIN_SERVICE,
  openSecretBox,
} from '../../src/main/store/secret-store.js';
import { FileKeySecretBox, SECRET_KEY_FILE_NAME, type SecretBox } from '../../src/main/store/secrets.js';
import { SETTINGS_KEY } from '../../src/main/store/settings-secrets.js';
import { tempDir, tempStore } from '../store/store-fixtures.js';

/** A working keychain held in memory: the OS one is exercised for real in keychain-real.integration.test.ts. */
function memoryKeychain(): Keychain & { entries: Map<string, string> } {
  const entries = new Map<string, string>();
  return {
    entries,
    get: (service, account) => entries.get(`${service}/${account}`),
    set: (service, account, value) => void entries.set(`${service}/${account}`, value),
  };
}

/** Electron's safeStorage stand-in: a box of another scheme that only the desktop app can read. */
const safeStorageLike: SecretBox = {
  kind: 'safe-storage',
  encrypt: (plain) => Buffer.from(plain).toString('base64'),
  decrypt: (cipher) => Buffer.from(cipher, 'base64').toString(),
};

function settingsWithKey(apiKey: string) {
  return { llms: { main: { provider: 'openai', model: 'gpt-4o', apiKey } }, defaultLlm: 'main' };
}

function storedApiKey(store: ReturnType<typeof tempStore>['store']): string {
  return (store.getSetting(SETTINGS_KEY) as { llms: { main: { apiKey: string } } }).llms.main.apiKey;
}

describe('the shared secret store', () => {
  it.runIf(process.platform === 'linux')('falls back to the key file where no Secret Service is reachable', () => {
    const sessionBus = process.env.DBUS_SESSION_BUS_ADDRESS;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    onTestFinished(() => {
      if (sessionBus !== undefined) process.env.DBUS_SESSION_BUS_ADDRESS = sessionBus;
    });
    expect(() => osKeychain.set(KEYCHAIN_SERVICE, 'probe', 'value')).toThrow(/D-Bus session/);
    const dataDir = tempDir();
    const box = openSecretBox(dataDir, { keychain: osKeychain });
    expect(box.kind).toBe('file-key');
    expect(fs.existsSync(path.join(dataDir, SECRET_KEY_FILE_NAME))).toBe(true);
    expect(fs.existsSync(path.join(dataDir, KEYCHAIN_ACCOUNT_FILE_NAME))).toBe(false);
    expect(openSecretBox(dataDir).decrypt(box.encrypt('round trip'))).toBe('round trip');
  });

  it('keeps its key in the keychain when there is one: the app and the CLI read what the other saved', () => {
    const keychain = memoryKeychain();
    const { store, dataDir } = tempStore();
    const app = openSecretBox(dataDir, { keychain, older: [safeStorageLike] });
    const cli = openSecretBox(dataDir, { keychain });
    expect(app.kind).toBe(KEYCHAIN_BOX_KIND);
    expect(fs.existsSync(path.join(dataDir, SECRET_KEY_FILE_NAME))).toBe(false);
    expect([...keychain.entries.keys()]).toEqual([
      `${KEYCHAIN_SERVICE}/${fs.readFileSync(path.join(dataDir, KEYCHAIN_ACCOUNT_FILE_NAME), 'utf8').trim()}`,
    ]);
    saveSettings(store, app, settingsWithKey('key-saved-in-the-app'));
    expect(readSettings(store, cli)).toMatchObject({
      settings: { llms: { main: { apiKey: 'key-saved-in-the-app' } } },
      problems: [],
    });
    saveSettings(store, cli, settingsWithKey('key-saved-in-the-cli'));
    expect(readSettings(store, app).settings.llms.main.apiKey).toBe('key-saved-in-the-cli');
  });

  it("moves the app's safeStorage values and the key file's values to the keychain on first read", () => {
    const keychain = memoryKeychain();
    const { store, dataDir } = tempStore();
    saveSettings(store, safeStorageLike, settingsWithKey('sealed-by-safe-storage'));
    expect(storedApiKey(store)).toMatch(/^enc:safe-storage:/);
    // the CLI cannot read the app's old value: reported, not fatal
    const beforeTheApp = readSettings(store, openSecretBox(dataDir, { keychain }));
    expect(beforeTheApp.problems).toEqual([
      { key: 'llms.main.apiKey', detail: expect.stringMatching(/cannot be decrypted.*"safe-storage"/) },
    ]);
    // the app reads it, and re-saves it where the CLI reads it too
    const app = openSecretBox(dataDir, { keychain, older: [safeStorageLike] });
    expect(readSettings(store, app).settings.llms.main.apiKey).toBe('sealed-by-safe-storage');
    expect(storedApiKey(store)).toMatch(/^enc:keychain:/);
    expect(readSettings(store, openSecretBox(dataDir, { keychain })).settings.llms.main.apiKey).toBe(
      'sealed-by-safe-storage',
    );

    const fileKeyData = tempStore();
    saveSettings(fileKeyData.store, FileKeySecretBox.inDataDir(fileKeyData.dataDir), settingsWithKey('in-key-file'));
    const moved = readSettings(fileKeyData.store, openSecretBox(fileKeyData.dataDir, { keychain }));
    expect(moved).toMatchObject({ settings: { llms: { main: { apiKey: 'in-key-file' } } }, problems: [] });
    expect(storedApiKey(fileKeyData.store)).toMatch(/^enc:keychain:/);
  });

  it('never replaces a key the keychain held once and no longer answers for', () => {
    const keychain = memoryKeychain();
    const { store, dataDir } = tempStore();
    saveSettings(store, openSecretBox(dataDir, { keychain }), settingsWithKey('kept-in-keychain'));
    const held = new Map(keychain.entries);
    keychain.entries.clear();
    // e.g. a locked or missing keyring: the value is reported, the key file takes new values, nothing is overwritten
    const meanwhile = openSecretBox(dataDir, { keychain });
    expect(meanwhile.kind).toBe('file-key');
    expect(keychain.entries.size).toBe(0);
    expect(readSettings(store, meanwhile).problems.map((problem) => problem.key)).toEqual(['llms.main.apiKey']);
    for (const [entry, value] of held) keychain.entries.set(entry, value);
    expect(readSettings(store, openSecretBox(dataDir, { keychain })).settings.llms.main.apiKey).toBe(
      'kept-in-keychain',
    );
  });

  it('of two processes creating the key at once, both end up using the same one', () => {
    const keychain = memoryKeychain();
    const dataDir = tempDir();
    const accountFile = path.join(dataDir, KEYCHAIN_ACCOUNT_FILE_NAME);
    // the other process names its key between our keychain write and our account file write
    const racing: Keychain = {
      get: keychain.get,
      set: (service, account, value) => {
        keychain.set(service, account, value);
        if (!fs.existsSync(accountFile)) {
          const other = openSecretBox(dataDir, { keychain });
          fs.writeFileSync(path.join(dataDir, 'other-box.txt'), other.encrypt('from the other process'));
        }
      },
    };
    const ours = openSecretBox(dataDir, { keychain: racing });
    expect(ours.decrypt(fs.readFileSync(path.join(dataDir, 'other-box.txt'), 'utf8'))).toBe('from the other process');
  });
});
