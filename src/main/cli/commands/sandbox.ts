import { Command } from 'commander';
import type { BuildOptions } from './sandbox-actions.js';

const ENGINE_HELP = 'a Docker context name or endpoint URL (default: settings sandbox.engine, else as the docker CLI)';

const actions = () => import('./sandbox-actions.js');

/** `manus sandbox build|status|prune`: make the sandbox image, see what runs, remove what nobody uses. */
export function sandboxCommand(): Command {
  const sandbox = new Command('sandbox').description('the Docker sandbox where code runs');

  sandbox
    .command('build')
    .description('build the sandbox image (from resources/sandbox/Dockerfile, or with --offline via debootstrap)')
    .option('--offline', 'no registry needed: debootstrap Debian and docker import it (needs root and debootstrap)')
    .option('--force', 'rebuild even when the image exists (offline build)')
    .option('--image <name>', 'image name (default: settings sandbox.image)')
    .option('--engine <context|url>', ENGINE_HELP)
    .action(async (options: BuildOptions, command: Command) => (await actions()).buildSandbox(options, command));

  sandbox
    .command('status')
    .description('whether the Docker engine answers, whether the image is there, and which sandbox containers exist')
    .option('--json', 'as JSON')
    .option('--image <name>', 'image name (default: settings sandbox.image)')
    .option('--engine <context|url>', ENGINE_HELP)
    .action(async (options: { json?: boolean; image?: string; engine?: string }, command: Command) =>
      (await actions()).showSandboxStatus(options, command),
    );

  sandbox
    .command('prune')
    .description(
      'remove sandbox containers nobody uses: those of manus processes that are gone (this host only), and of deleted sessions',
    )
    .option('--all', 'also the stopped (idle) containers of manus processes still running; running containers stay')
    .option('--json', 'as JSON')
    .option('--engine <context|url>', ENGINE_HELP)
    .action(async (options: { all?: boolean; json?: boolean; engine?: string }, command: Command) =>
      (await actions()).pruneSandboxes(options, command),
    );

  return sandbox;
}
