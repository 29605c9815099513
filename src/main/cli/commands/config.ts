import { Command } from 'commander';
import { openCliContext, type CliContext } from '../cli-context.js';
import { loadSettings, saveSettings } from '../../config/settings-store.js';
import { getPath, parseSettingValue, setPath } from '../../config/settings-path.js';
import { expandSettingsKey } from '../../config/llm-overrides.js';
import { maskSecrets } from '../../store/settings-secrets.js';

const NEW_PROVIDER_MODEL = 'gpt-4o';

function withContext(command: Command, body: (context: CliContext) => void): void {
  const context = openCliContext({ dataDir: command.optsWithGlobals<{ dataDir?: string }>().dataDir });
  try {
    body(context);
  } finally {
    context.close();
  }
}

/** `manus config get|set|unset|path`: the saved settings the app uses too (keys are dotted paths). */
export function configCommand(): Command {
  const config = new Command('config').description('saved settings (shared with the app)');

  config
    .command('get')
    .description('print all settings, or one key (e.g. llm.model, sandbox.network); secrets are masked')
    .argument('[key]')
    .action((key: string | undefined, _options: unknown, command: Command) =>
      withContext(command, ({ store, secrets }) => {
        const masked = maskSecrets(loadSettings(store, secrets));
        const value = key ? getPath(masked, expandSettingsKey(loadSettings(store, secrets), key)) : masked;
        if (value === undefined) throw new Error(`No setting "${key}".`);
        process.stdout.write(typeof value === 'string' ? `${value}\n` : `${JSON.stringify(value, null, 2)}\n`);
      }),
    );

  config
    .command('set')
    .description('set a key (values are JSON when they parse: numbers, true/false, arrays)')
    .argument('<key>')
    .argument('<value>')
    .action((key: string, raw: string, _options: unknown, command: Command) =>
      withContext(command, ({ store, secrets }) => {
        const settings = loadSettings(store, secrets);
        const path = expandSettingsKey(settings, key);
        let next = setPath(settings, path, parseSettingValue(raw));
        if (key.startsWith('llm.')) next = withProviderDefaults(next, path);
        saveSettings(store, secrets, next);
        process.stdout.write(`${key} saved.\n`);
      }),
    );

  config
    .command('unset')
    .description('remove a key (it falls back to its default)')
    .argument('<key>')
    .action((key: string, _options: unknown, command: Command) =>
      withContext(command, ({ store, secrets }) => {
        const settings = loadSettings(store, secrets);
        saveSettings(store, secrets, setPath(settings, expandSettingsKey(settings, key), undefined));
        process.stdout.write(`${key} removed.\n`);
      }),
    );

  config
    .command('path')
    .description('print the data folder')
    .action((_options: unknown, command: Command) =>
      withContext(command, ({ dataDir }) => process.stdout.write(`${dataDir}\n`)),
    );

  return config;
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
