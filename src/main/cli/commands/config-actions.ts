import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { importOpenManusConfig } from '../../config/openmanus-import.js';
import { parseMcpConfigFile } from '../../mcp/config-file.js';
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
import { printErr, printOut, terminalJson } from '../output/terminal-print.js';
import { isUnconfirmed } from '../../mcp/launch-confirmation.js';
import { printHowToConfirm } from './mcp-confirm.js';
import { AppSettingsSchema } from '../../../shared/settings/app-settings.js';
import { describeUnknownKey, findUnknownKey } from '../../../shared/settings/settings-keys.js';

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
    const path = knownKey(expandSettingsKey(settings, key));
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
    const path = knownKey(expandSettingsKey(settings, key));
    saveSettings(context.store, context.secrets, setPath(settings, path, undefined));
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

/** `manus config import config.toml`: OpenManus's settings (and its mcp.json beside the file) into ours. */
export function importConfig(file: string, command: Command): void {
  const toml = readFileSync(file, 'utf8');
  const mcpFile = join(dirname(resolve(file)), 'mcp.json');
  const { servers, skipped: invalidServers } = existsSync(mcpFile)
    ? parseMcpConfigFile(readFileSync(mcpFile, 'utf8'))
    : { servers: {}, skipped: [] };
  withContext(command, (context) => {
    const imported = importOpenManusConfig(toml, loadReporting(context), servers);
    // API keys and proxy passwords are sealed into the secret store as they are saved
    saveSettings(context.store, context.secrets, imported.settings);
    const lines = [`Imported ${file}${existsSync(mcpFile) ? ` and ${mcpFile}` : ''}.`, 'Mapped:'];
    for (const line of imported.mapped) lines.push(`  ${line.from} → ${line.to}`);
    if (imported.mapped.length === 0) lines.push('  nothing');
    if (imported.skipped.length || invalidServers.length) lines.push('Not mapped:');
    for (const line of imported.skipped) lines.push(`  ${line.from}: ${line.why}`);
    for (const { name, reason } of invalidServers) lines.push(`  mcp.json ${terminalJson(name)}: ${reason}`);
    for (const line of lines) printOut.line`${line}`;
    // commands from a file start only once seen: the same rule as `manus mcp import`
    printHowToConfirm(Object.keys(servers).filter((name) => isUnconfirmed(servers[name])));
  });
}

/** `manus config path` */
export function printDataDir(command: Command): void {
  withContext(command, ({ dataDir }) => printOut.line`${dataDir}`);
}

/** `path` when the settings have such a key; else an error naming the closest one (a typo would be dropped). */
function knownKey(path: string): string {
  if (findUnknownKey(AppSettingsSchema, path)) throw new Error(describeUnknownKey(AppSettingsSchema, path));
  return path;
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
