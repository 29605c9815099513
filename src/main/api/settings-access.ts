import type { AppSettings } from '../../shared/settings/app-settings.js';
import type { SessionStore } from '../store/store-api.js';
import type { SecretBox } from '../store/secrets.js';
import { loadSettings, saveSettings } from '../config/settings-store.js';

/** Where the core reads and writes the app's settings (decrypted in memory, encrypted at rest). */
export interface SettingsAccess {
  read(): AppSettings;
  write(next: AppSettings): void;
}

/** Settings kept in the store with their secrets encrypted by `box` (a key file in the CLI, safeStorage in Electron). */
export function storedSettings(store: SessionStore, box: SecretBox): SettingsAccess {
  return {
    read: () => loadSettings(store, box),
    write: (next) => void saveSettings(store, box, next),
  };
}
