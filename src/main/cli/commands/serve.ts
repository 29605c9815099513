import { Command } from 'commander';
import type { ServeDeps, ServeOptions } from './serve-action.js';
import { SERVE_TOKEN_ENV, addListenOptions, addTokenOption } from './server-options.js';
import { addRunEnvironmentOptions } from '../turn-options.js';

export const DEFAULT_SERVE_PORT = 8765;

/**
 * `manus serve [--port 8765]`: the app in a browser on 127.0.0.1, behind the token in the printed URL. The token is
 * kept in the data folder, so a restarted server takes the pages that were open back without a new URL.
 */
export function serveCommand(deps: ServeDeps): Command {
  const serve = new Command('serve').description(
    'serve the app to a browser on 127.0.0.1 (open the printed URL; it carries the access token)',
  );
  addListenOptions(serve, DEFAULT_SERVE_PORT);
  return addRunEnvironmentOptions(addTokenOption(serve, SERVE_TOKEN_ENV))
    .option('--new-token', 'replace the token kept in the data folder with a new one (open pages must use the new URL)')
    .action(async (options: ServeOptions, command: Command) =>
      (await import('./serve-action.js')).serveApp(deps, options, command),
    );
}
