import type { ToolContext } from '../tool/tool.js';
import type { SessionResources } from '../session/resources.js';
import type { Llm } from '../llm/types.js';
import { AppSettingsSchema, type AppSettings } from '../../shared/settings/app-settings.js';

const SETTINGS_PROVISION = 'settings';
const LLM_PROVISION = 'llm';
const DATA_DIR_PROVISION = 'data-dir';

/** The settings a session runs with, handed in by whoever starts it. */
export function provideSettings(resources: SessionResources, settings: AppSettings): void {
  resources.provide(SETTINGS_PROVISION, settings);
}

export function settingsOf(target: ToolContext | SessionResources): AppSettings {
  return resourcesOf(target).provision<AppSettings>(SETTINGS_PROVISION) ?? AppSettingsSchema.parse({});
}

/** The session's model, for tools that need one (extract_content, create_chat_completion). */
export function provideLlm(resources: SessionResources, llm: Llm): void {
  resources.provide(LLM_PROVISION, llm);
}

export function llmOf(target: ToolContext | SessionResources): Llm | undefined {
  return resourcesOf(target).provision<Llm>(LLM_PROVISION);
}

/** The data folder the session belongs to (resources that outlive the process, like containers, are labelled with it). */
export function provideDataDir(resources: SessionResources, dataDir: string): void {
  resources.provide(DATA_DIR_PROVISION, dataDir);
}

export function dataDirOf(target: ToolContext | SessionResources): string | undefined {
  return resourcesOf(target).provision<string>(DATA_DIR_PROVISION);
}

function resourcesOf(target: ToolContext | SessionResources): SessionResources {
  return 'resources' in target ? target.resources : target;
}
