import { Command } from 'commander';
import type { ServeDeps } from './serve-action.js';
import { addListenOptions, type ListenOptions } from './server-options.js';
import { addRunEnvironmentOptions, type RunEnvironmentOptions } from '../turn-options.js';

export const DEFAULT_SERVE_PORT = 8765;

/** `manus serve [--port 8765]`: the app in a browser on 127.0.0.1, behind the token in the printed URL. */
export function serveCommand(deps: ServeDeps): Command {
  const serve = new Command('serve').description(
    'serve the app to a browser on 127.0.0.1 (open the printed URL; it carries the access token)',
  );
  return addRunEnvironmentOptions(addListenOptions(serve, DEFAULT_SERVE_PORT)).action(
    async (options: ListenOptions & RunEnvironmentOptions, command: Command) =>
      (await import('./serve-action.js')).serveApp(deps, options, command),
  );
}
