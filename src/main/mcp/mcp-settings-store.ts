import type { SessionStore } from '../store/store-api.js';
import { McpSettingsSchema, type McpSettings } from './mcp-settings.js';

/** The key the whole AppSettings object is stored under. */
const SETTINGS_KEY = 'settings';

export function readMcpSettings(store: SessionStore): McpSettings {
  const stored = store.getSetting<Record<string, unknown>>(SETTINGS_KEY) ?? {};
  return McpSettingsSchema.parse(stored.mcp ?? {});
}

/** Rewrites only the `mcp` section; the other sections are kept exactly as stored. */
export function updateMcpSettings(store: SessionStore, update: (current: McpSettings) => McpSettings): McpSettings {
  const stored = store.getSetting<Record<string, unknown>>(SETTINGS_KEY) ?? {};
  const next = McpSettingsSchema.parse(update(McpSettingsSchema.parse(stored.mcp ?? {})));
  store.setSetting(SETTINGS_KEY, { ...stored, mcp: next });
  return next;
}
