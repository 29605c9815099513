import { Command } from 'commander';
import type { A2aDeps, A2aOptions } from './a2a-action.js';
import { addRunEnvironmentOptions } from '../turn-options.js';
import type { DepsSource } from './deps-source.js';
import { A2A_TOKEN_ENV, addListenOptions, addTokenOption } from './server-options.js';

const DEFAULT_A2A_PORT = 10000;

/** `manus a2a`: the agent as an A2A server other agents can discover and hand tasks to. */
export function a2aCommand(deps: DepsSource<A2aDeps>): Command {
  const a2a = new Command('a2a').description(
    'serve the agent over the A2A protocol on 127.0.0.1 with a bearer token (agent card, message/send, message/stream, tasks)',
  );
  addListenOptions(a2a, DEFAULT_A2A_PORT);
  addTokenOption(a2a, A2A_TOKEN_ENV);
  return addRunEnvironmentOptions(a2a).action(async (options: A2aOptions, command: Command) =>
    (await import('./a2a-action.js')).serveA2a(deps, options, command),
  );
}
