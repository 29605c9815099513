import { AppSettingsSchema, type AppSettings } from '../config/settings.js';
import type { SessionStore } from '../store/store-api.js';

/** Where the core reads and writes the app's settings. */
export interface SettingsAccess {
  read(): AppSettings;
  write(next: AppSettings): void;
}

const SETTINGS_KEY = 'settings';

/** Settings kept in the store under one key, parsed (defaults filled) on every read. */
export function storeSettings(store: SessionStore): SettingsAccess {
  return {
    read: () => AppSettingsSchema.parse(store.getSetting(SETTINGS_KEY) ?? {}),
    write: (next) => store.setSetting(SETTINGS_KEY, AppSettingsSchema.parse(next)),
  };
}
