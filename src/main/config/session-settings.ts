import type { ToolContext } from '../tool/tool.js';
import type { SessionResources } from '../session/resources.js';
import { AppSettingsSchema, type AppSettings } from './settings.js';

const SETTINGS_PROVISION = 'settings';

/** The settings a session runs with, handed in by whoever starts it. */
export function provideSettings(resources: SessionResources, settings: AppSettings): void {
  resources.provide(SETTINGS_PROVISION, settings);
}

export function settingsOf(target: ToolContext | SessionResources): AppSettings {
  const resources = 'resources' in target ? target.resources : target;
  return resources.provision<AppSettings>(SETTINGS_PROVISION) ?? AppSettingsSchema.parse({});
}
