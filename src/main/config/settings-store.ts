import { z } from 'zod';
import type { SecretBox } from '../store/secrets.js';
import type { SessionStore } from '../store/store-api.js';
import { loadSettings as loadStoredSettings, saveSettings as saveStoredSettings } from '../store/settings-secrets.js';
import { AppSettingsSchema, type AppSettings } from './settings.js';

export class InvalidSettingsError extends Error {
  readonly hint = 'Fix it with `manus config set KEY VALUE` or in the Settings screen; nothing was changed.';
  constructor(detail: string) {
    super(`The settings are not valid:\n${detail}`);
    this.name = 'InvalidSettingsError';
  }
}

/** The saved settings (secrets decrypted), validated; a malformed value is reported, never silently replaced. */
export function loadSettings(store: SessionStore, box: SecretBox): AppSettings {
  const parsed = AppSettingsSchema.safeParse(loadStoredSettings(store, box) ?? {});
  if (!parsed.success) throw new InvalidSettingsError(z.prettifyError(parsed.error));
  return parsed.data;
}

/** Validates before writing (secrets encrypted): invalid settings are refused whole. */
export function saveSettings(store: SessionStore, box: SecretBox, settings: unknown): AppSettings {
  const parsed = AppSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new InvalidSettingsError(z.prettifyError(parsed.error));
  saveStoredSettings(store, box, parsed.data);
  return parsed.data;
}
