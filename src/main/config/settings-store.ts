import { z } from 'zod';
import type { SecretBox } from '../store/secrets.js';
import type { SessionStore } from '../store/store-api.js';
import {
  SETTINGS_KEY,
  encryptSettingsSecrets,
  openSettingsSecrets,
  saveSettings as saveStoredSettings,
} from '../store/settings-secrets.js';
import { getPath, setPath } from './settings-path.js';
import { AppSettingsSchema, type AppSettings } from '../../shared/settings/app-settings.js';

/** names the whole settings record in a problem (e.g. it is not JSON at all) */
export const ALL_SETTINGS = '*';
/** a broken value nested deeper than this is dropped with its parent: a bound on the repair loop */
const MAX_REPAIRS = 100;

export class InvalidSettingsError extends Error {
  readonly hint = 'Fix it with `manus config set KEY VALUE` or in the Settings screen; nothing was changed.';
  constructor(detail: string) {
    super(`The settings are not valid:\n${detail}`);
    this.name = 'InvalidSettingsError';
  }
}

/** A saved setting that could not be used: it is ignored (its default applies) until fixed or reset. */
export interface SettingsProblem {
  /** dotted path, or `*` for the whole record */
  key: string;
  detail: string;
}

export interface LoadedSettings {
  settings: AppSettings;
  problems: SettingsProblem[];
}

/** One line for a person: what is broken, that the rest is kept, and the command that fixes it. */
export function describeSettingsProblem(problem: SettingsProblem): string {
  if (problem.key === ALL_SETTINGS) {
    return `The saved settings ${problem.detail}. Running on defaults; fix with \`manus config reset --all\`.`;
  }
  return (
    `The setting ${problem.key} ${problem.detail}; it is ignored and the other settings are kept. ` +
    `Fix with \`manus config reset ${problem.key}\` or \`manus config set ${problem.key} VALUE\`.`
  );
}

function readStored(store: SessionStore, problems: SettingsProblem[]): unknown {
  try {
    return store.getSetting(SETTINGS_KEY) ?? {};
  } catch (error) {
    const backup = store.backupSetting(SETTINGS_KEY);
    const kept = backup ? `; a copy is kept in ${backup}` : '';
    problems.push({ key: ALL_SETTINGS, detail: `are not valid JSON (${(error as Error).message})${kept}` });
    return {};
  }
}

/** The path to drop for a schema issue: the value itself, or its parent when the value is missing. */
function brokenPath(settings: unknown, issuePath: readonly PropertyKey[]): string {
  const keys = issuePath.map(String);
  while (keys.length > 1 && getPath(settings, keys.join('.')) === undefined) keys.pop();
  return keys.join('.');
}

/** The valid settings: each value that fails its schema is dropped (its default applies) and reported. */
function parseKeepingValid(stored: unknown, problems: SettingsProblem[]): AppSettings {
  let candidate = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  if (candidate !== stored) problems.push({ key: ALL_SETTINGS, detail: 'are not an object' });
  for (let repair = 0; repair < MAX_REPAIRS; repair++) {
    const parsed = AppSettingsSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      if (issue.path.length === 0) break;
      const key = brokenPath(candidate, issue.path);
      if (getPath(candidate, key) === undefined) continue;
      problems.push({ key, detail: `is not valid (${issue.message})` });
      candidate = setPath(candidate, key, undefined);
    }
  }
  problems.push({ key: ALL_SETTINGS, detail: 'could not be repaired' });
  return AppSettingsSchema.parse({});
}

/**
 * The saved settings (secrets decrypted), validated value by value: an unreadable record, a secret that can no
 * longer be decrypted or a value that fails its schema is reported and left at its default; the rest is kept.
 */
export function readSettings(store: SessionStore, box: SecretBox): LoadedSettings {
  const problems: SettingsProblem[] = [];
  const stored = readStored(store, problems);
  const opened = openSettingsSecrets(stored, box);
  for (const { path, reason } of opened.unreadable) {
    problems.push({ key: path, detail: `cannot be decrypted (${reason})` });
  }
  // values of an older scheme (the key file, the desktop app's safeStorage) move to the shared store
  if (opened.usedOlder && problems.length === 0)
    store.setSetting(SETTINGS_KEY, encryptSettingsSecrets(opened.settings, box));
  const settings = parseKeepingValid(opened.settings, problems);
  // whatever is dropped stays on disk as it was: the next save rewrites the record
  if (problems.length > 0 && !problems.some((problem) => problem.key === ALL_SETTINGS))
    store.backupSetting(SETTINGS_KEY);
  return { settings, problems };
}

/** The usable settings; `readSettings` also says what was left out. */
export function loadSettings(store: SessionStore, box: SecretBox): AppSettings {
  return readSettings(store, box).settings;
}

/** Validates before writing (secrets encrypted): invalid settings are refused whole. */
export function saveSettings(store: SessionStore, box: SecretBox, settings: unknown): AppSettings {
  const parsed = AppSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new InvalidSettingsError(z.prettifyError(parsed.error));
  saveStoredSettings(store, box, parsed.data);
  return parsed.data;
}

/**
 * Puts one saved key back to its default, touching nothing else (other values, even unreadable secrets, stay as
 * stored); `*` starts the whole record afresh after keeping a copy of it next to the database.
 */
export function resetSetting(store: SessionStore, key: string): { backup?: string } {
  if (key === ALL_SETTINGS) {
    const backup = store.backupSetting(SETTINGS_KEY);
    store.deleteSetting(SETTINGS_KEY);
    return { backup };
  }
  let stored: unknown;
  try {
    stored = store.getSetting(SETTINGS_KEY);
  } catch {
    throw new Error('The saved settings are not valid JSON: only `manus config reset --all` can reset them.');
  }
  if (stored === undefined || getPath(stored, key) === undefined) return {};
  store.setSetting(SETTINGS_KEY, setPath(stored, key, undefined));
  return {};
}
