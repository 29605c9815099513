import type { Command } from 'commander';
import { openCliContext, type CliContext } from '../cli-context.js';
import {
  ALL_SETTINGS,
  describeSettingsProblem,
  readSettings,
  resetSetting,
  saveSettings,
} from '../../config/settings-store.js';
import { getPath, parseSettingValue, setPath } from '../../config/settings-path.js';
import { expandSettingsKey } from '../../config/llm-overrides.js';
import { maskSecrets } from '../../store/settings-secrets.js';
import { printErr, printOut } from '../output/terminal-print.js';

const NEW_PROVIDER_MODEL = 'gpt-4o';

function withContext(command: Command, body: (context: CliContext) => void): void {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    body(context);
  } finally {
    context.close();
  }
}

/** The saved settings; what had to be left out is said on stderr, so stdout stays the value asked for. */
function loadReporting({ store, secrets }: CliContext) {
  const { settings, problems } = readSettings(store, secrets);
  for (const problem of problems) printErr.line`manus: ${describeSettingsProblem(problem)}`;
  return settings;
}

/** `manus config get [key]` */
export function getSetting(key: string | undefined, command: Command): void {
  withContext(command, (context) => {
    const settings = loadReporting(context);
    const masked = maskSecrets(settings);
    const value = key ? getPath(masked, expandSettingsKey(settings, key)) : masked;
    if (value === undefined) throw new Error(`No setting "${key}".`);
    if (typeof value === 'string') printOut.line`${value}`;
    else printOut.json(value);
  });
}

/** `manus config set KEY VALUE` */
export function setSetting(key: string, raw: string, command: Command): void {
  withContext(command, (context) => {
    const { store, secrets } = context;
    const settings = loadReporting(context);
    const path = expandSettingsKey(settings, key);
    let next = setPath(settings, path, parseSettingValue(raw));
    if (key.startsWith('llm.')) next = withProviderDefaults(next, path);
    saveSettings(store, secrets, next);
    printOut.line`${key} saved.`;
  });
}

/** `manus config unset KEY` */
export function unsetSetting(key: string, command: Command): void {
  withContext(command, (context) => {
    const settings = loadReporting(context);
    saveSettings(context.store, context.secrets, setPath(settings, expandSettingsKey(settings, key), undefined));
    printOut.line`${key} removed.`;
  });
}

/** `manus config reset [key] [--all]` */
export function resetSettings(key: string | undefined, options: { all?: boolean }, command: Command): void {
  withContext(command, ({ store, secrets }) => {
    if (!key && !options.all) throw new Error('Name the key to reset (e.g. sandbox.network), or pass --all.');
    const target = options.all ? ALL_SETTINGS : expandSettingsKey(readSettings(store, secrets).settings, key!);
    const { backup } = resetSetting(store, target);
    const kept = backup ? ` The old settings are kept in ${backup}.` : '';
    printOut.line`${options.all ? 'All settings' : key} reset to the default.${kept}`;
  });
}

/** `manus config path` */
export function printDataDir(command: Command): void {
  withContext(command, ({ dataDir }) => printOut.line`${dataDir}`);
}

/** `llm.apiKey` on a fresh install creates the provider: it gets a model and becomes the default. */
function withProviderDefaults<T extends { llms?: Record<string, { model?: string }>; defaultLlm?: string }>(
  settings: T,
  path: string,
): T {
  const name = path.split('.')[1];
  const provider = settings.llms?.[name];
  if (!provider) return settings;
  return {
    ...settings,
    defaultLlm: settings.defaultLlm ?? name,
    llms: { ...settings.llms, [name]: { model: NEW_PROVIDER_MODEL, ...provider } },
  };
}
