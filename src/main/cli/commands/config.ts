import { Command } from 'commander';

const actions = () => import('./config-actions.js');

/** `manus config get|set|unset|path`: the saved settings the app uses too (keys are dotted paths). */
export function configCommand(): Command {
  const config = new Command('config').description('saved settings (shared with the app)');

  config
    .command('get')
    .description('print all settings, or one key (e.g. llm.model, sandbox.network); secrets are masked')
    .argument('[key]')
    .action(async (key: string | undefined, _options: unknown, command: Command) =>
      (await actions()).getSetting(key, command),
    );

  config
    .command('set')
    .description('set a key (values are JSON when they parse: numbers, true/false, arrays)')
    .argument('<key>')
    .argument('<value>')
    .action(async (key: string, raw: string, _options: unknown, command: Command) =>
      (await actions()).setSetting(key, raw, command),
    );

  config
    .command('unset')
    .description('remove a key (it falls back to its default)')
    .argument('<key>')
    .action(async (key: string, _options: unknown, command: Command) => (await actions()).unsetSetting(key, command));

  config
    .command('reset')
    .description('put a broken or unwanted key back to its default, keeping every other setting as saved')
    .argument('[key]')
    .option('--all', 'start all settings afresh (a copy of the old ones is kept next to the database)')
    .action(async (key: string | undefined, options: { all?: boolean }, command: Command) =>
      (await actions()).resetSettings(key, options, command),
    );

  config
    .command('import')
    .description(
      "take OpenManus's config/config.toml (and the config/mcp.json beside it) into the settings; says what it mapped and what not",
    )
    .argument('<file>', 'the config.toml')
    .action(async (file: string, _options: unknown, command: Command) => (await actions()).importConfig(file, command));

  config
    .command('path')
    .description('print the data folder')
    .action(async (_options: unknown, command: Command) => (await actions()).printDataDir(command));

  return config;
}
