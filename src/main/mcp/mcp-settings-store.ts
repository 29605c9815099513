import type { SessionStore } from '../store/store-api.js';
import type { SecretBox } from '../store/secrets.js';
import { loadSettings, saveSettings } from '../store/settings-secrets.js';
import { McpSettingsSchema, type McpSettings } from '../../shared/settings/mcp-settings.js';
import { readSettings } from '../config/settings-store.js';

type StoredSettings = Record<string, unknown>;

/** The `mcp` section of the saved settings, credentials in headers/env decrypted (a broken value left at its default). */
export function readMcpSettings(store: SessionStore, box: SecretBox): McpSettings {
  return readSettings(store, box).settings.mcp;
}

/** Rewrites only the `mcp` section (validated first); the other sections are kept as stored. */
export function updateMcpSettings(
  store: SessionStore,
  box: SecretBox,
  update: (current: McpSettings) => McpSettings,
): McpSettings {
  const stored = (loadSettings(store, box) ?? {}) as StoredSettings;
  const next = McpSettingsSchema.parse(update(McpSettingsSchema.parse(stored.mcp ?? {})));
  saveSettings(store, box, { ...stored, mcp: next });
  return next;
}
