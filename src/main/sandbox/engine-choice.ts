import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type Docker from 'dockerode';
import { z } from 'zod';
import { knownHostVerifier, knownHostsFiles, unknownHostHint } from './ssh-known-hosts.js';

const DEFAULT_SOCKET = '/var/run/docker.sock';
const WINDOWS_PIPE = '//./pipe/docker_engine';
const PLAIN_TCP_PORT = '2375';
const TLS_TCP_PORT = '2376';
const SSH_PORT = '22';

/** Which Docker engine the sandboxes run on, chosen the way the docker CLI chooses it. */
export interface EngineChoice {
  /** what decided it, for `manus sandbox status`: the setting or flag, DOCKER_HOST, a context, or the default */
  source: string;
  /** the engine's address: unix:///var/run/docker.sock, tcp://host:2376, ssh://user@host */
  endpoint: string;
  /** a socket on this machine: the engine sees the host's folders, so the workspace can be bind-mounted */
  local: boolean;
  /** what dockerode is given (every field set, so DOCKER_HOST read again by docker-modem cannot override it) */
  options: Docker.DockerOptions;
  /** the environment under which the docker CLI reaches the same engine (the offline image build runs it) */
  cliEnv: Record<string, string | undefined>;
}

/** How /workspace reaches the sandbox: `auto` bind-mounts for an engine on this machine's socket, copies otherwise. */
export function workspaceTransfer(setting: 'bind' | 'copy' | 'auto', choice: EngineChoice): 'bind' | 'copy' {
  if (setting !== 'auto') return setting;
  return choice.local ? 'bind' : 'copy';
}

/** Why an SSH engine was refused at the handshake, said so the user can fix it; undefined for other failures. */
export function sshRefusalHint(choice: EngineChoice, detail: string): string | undefined {
  if (choice.options.protocol !== 'ssh' || !/Host denied/i.test(detail)) return undefined;
  const { host, port, username } = choice.options;
  return unknownHostHint(host ?? '', Number(port ?? SSH_PORT), username);
}

/** One line for status and errors: where the engine is and what chose it. */
export function describeEngine(choice: EngineChoice): string {
  return `${choice.endpoint} (${choice.source}${choice.local ? ', on this machine' : ', remote'})`;
}

/** The environment the choice reads (DOCKER_HOST, DOCKER_CONTEXT, DOCKER_CONFIG, DOCKER_TLS_VERIFY...). */
export type EngineEnv = Readonly<Record<string, string | undefined>>;

const ConfigSchema = z.object({ currentContext: z.string().optional() });
const ContextMetaSchema = z.object({
  Name: z.string(),
  Endpoints: z.object({
    docker: z.object({ Host: z.string(), SkipTLSVerify: z.boolean().optional() }),
  }),
});

/** A context or endpoint that cannot be used, said so the user can fix it. */
export class EngineChoiceError extends Error {
  override readonly name = 'EngineChoiceError';
}

/**
 * `requested` (the `sandbox.engine` setting or `--engine`) names a context or an endpoint URL; without it, as the
 * docker CLI: DOCKER_HOST, else DOCKER_CONTEXT, else the config's currentContext, else the local socket.
 */
export function chooseEngine(requested: string | undefined, env: EngineEnv = process.env): EngineChoice {
  const configDir = env.DOCKER_CONFIG || join(env.HOME || homedir(), '.docker');
  if (requested) {
    if (requested.includes('://')) return endpointChoice(requested, 'sandbox.engine', env, tlsFromEnv(env, configDir));
    return contextChoice(requested, 'sandbox.engine', env, configDir);
  }
  if (env.DOCKER_HOST) return endpointChoice(env.DOCKER_HOST, 'DOCKER_HOST', env, tlsFromEnv(env, configDir));
  const context = env.DOCKER_CONTEXT || currentContext(configDir);
  if (context) return contextChoice(context, env.DOCKER_CONTEXT ? 'DOCKER_CONTEXT' : 'current context', env, configDir);
  return defaultSocket(env, 'default socket');
}

/** A context by name: its endpoint and the TLS files stored with it. */
function contextChoice(name: string, why: string, env: EngineEnv, configDir: string): EngineChoice {
  if (name === 'default') return defaultSocket(env, `context "default" (${why})`);
  const id = createHash('sha256').update(name).digest('hex');
  const metaFile = join(configDir, 'contexts', 'meta', id, 'meta.json');
  if (!existsSync(metaFile)) {
    throw new EngineChoiceError(
      `The Docker context "${name}" does not exist (no ${metaFile}). List contexts with \`docker context ls\`, or name ` +
        'an endpoint such as ssh://user@host or tcp://host:2376.',
    );
  }
  const parsed = ContextMetaSchema.safeParse(readJson(metaFile));
  if (!parsed.success)
    throw new EngineChoiceError(`The Docker context "${name}" has no docker endpoint (${metaFile}).`);
  const endpoint = parsed.data.Endpoints.docker;
  if (endpoint.SkipTLSVerify) {
    throw new EngineChoiceError(
      `The Docker context "${name}" skips TLS verification, which the sandbox does not do: give it the engine's CA ` +
        '(`docker context update --docker "host=...,ca=...,cert=...,key=..."`).',
    );
  }
  const tlsDir = join(configDir, 'contexts', 'tls', id, 'docker');
  const choice = endpointChoice(endpoint.Host, `context "${name}" (${why})`, env, tlsFiles(tlsDir, false));
  return { ...choice, cliEnv: { DOCKER_HOST: undefined, DOCKER_CONTEXT: name } };
}

interface TlsMaterial {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  /** the CLI talks TLS to this endpoint (DOCKER_TLS_VERIFY, or a context with TLS files) */
  required: boolean;
}

/** DOCKER_TLS_VERIFY / DOCKER_TLS turn TLS on; the files come from DOCKER_CERT_PATH or the config folder. */
function tlsFromEnv(env: EngineEnv, configDir: string): TlsMaterial {
  const required = Boolean(env.DOCKER_TLS_VERIFY || env.DOCKER_TLS);
  if (!required) return { required };
  return tlsFiles(env.DOCKER_CERT_PATH || configDir, true);
}

function tlsFiles(folder: string, required: boolean): TlsMaterial {
  const read = (name: string): Buffer | undefined => {
    const path = join(folder, name);
    return existsSync(path) ? readFileSync(path) : undefined;
  };
  const material = { ca: read('ca.pem'), cert: read('cert.pem'), key: read('key.pem') };
  return { ...material, required: required || Boolean(material.ca ?? material.cert) };
}

function endpointChoice(endpoint: string, source: string, env: EngineEnv, tls: TlsMaterial): EngineChoice {
  const url = parseEndpoint(endpoint);
  const none = { socketPath: undefined, host: undefined, port: undefined, protocol: undefined };
  // the CLI honours the same TLS variables, which stay in its environment
  const cliEnv = { DOCKER_HOST: endpoint, DOCKER_CONTEXT: undefined };
  if (url.protocol === 'unix:' || url.protocol === 'npipe:') {
    const socketPath = url.protocol === 'npipe:' ? endpoint.slice('npipe://'.length) : url.pathname;
    return { source, endpoint, local: true, options: { ...none, socketPath }, cliEnv };
  }
  if (url.protocol === 'ssh:') {
    return {
      source,
      endpoint,
      local: false,
      cliEnv,
      options: {
        ...none,
        protocol: 'ssh',
        host: url.hostname,
        port: url.port || SSH_PORT,
        ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
        sshOptions: {
          // keys come from the user's ssh agent, as with `docker -H ssh://...`
          agent: env.SSH_AUTH_SOCK,
          // the server must show the host key recorded in known_hosts, as OpenSSH (and so the docker CLI) requires
          hostVerifier: knownHostVerifier(
            url.hostname,
            Number(url.port || SSH_PORT),
            knownHostsFiles(env.HOME || homedir()),
          ),
        },
      },
    };
  }
  const secure = url.protocol === 'https:' || tls.required;
  return {
    source,
    endpoint,
    local: false,
    cliEnv,
    options: {
      ...none,
      protocol: secure ? 'https' : 'http',
      host: url.hostname,
      port: url.port || (secure ? TLS_TCP_PORT : PLAIN_TCP_PORT),
      ...(secure ? { ca: tls.ca, cert: tls.cert, key: tls.key } : {}),
    },
  };
}

function defaultSocket(env: EngineEnv, source: string): EngineChoice {
  if (process.platform === 'win32') {
    const endpoint = `npipe://${WINDOWS_PIPE}`;
    return {
      source,
      endpoint,
      local: true,
      options: { socketPath: WINDOWS_PIPE },
      cliEnv: { DOCKER_HOST: endpoint, DOCKER_CONTEXT: undefined },
    };
  }
  // Docker Desktop's per-user socket, as docker-modem and the CLI look for it
  const userSocket = join(env.HOME || homedir(), '.docker', 'run', 'docker.sock');
  const socketPath = existsSync(userSocket) ? userSocket : DEFAULT_SOCKET;
  return {
    source,
    endpoint: `unix://${socketPath}`,
    local: true,
    options: { socketPath, host: undefined, port: undefined, protocol: undefined },
    cliEnv: { DOCKER_HOST: `unix://${socketPath}`, DOCKER_CONTEXT: undefined },
  };
}

function parseEndpoint(endpoint: string): URL {
  const withScheme = endpoint.includes('://') ? endpoint : `tcp://${endpoint}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new EngineChoiceError(`"${endpoint}" is not a Docker endpoint (unix://, tcp://, ssh://, npipe://).`);
  }
  if (!['unix:', 'npipe:', 'tcp:', 'http:', 'https:', 'ssh:'].includes(url.protocol)) {
    throw new EngineChoiceError(`"${endpoint}" is not a Docker endpoint (unix://, tcp://, ssh://, npipe://).`);
  }
  if (url.protocol !== 'unix:' && url.protocol !== 'npipe:' && !url.hostname) {
    throw new EngineChoiceError(`"${endpoint}" names no host.`);
  }
  return url;
}

function currentContext(configDir: string): string | undefined {
  const file = join(configDir, 'config.json');
  if (!existsSync(file)) return undefined;
  const parsed = ConfigSchema.safeParse(readJson(file));
  return parsed.success ? parsed.data.currentContext || undefined : undefined;
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EngineChoiceError(
      `${file} is not valid JSON (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
