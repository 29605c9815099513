import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { cliEnv } from '../../support/cli.js';

const require = createRequire(import.meta.url);

function entryOf(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'dist', 'index.js');
}

/** `node <entry> stdio|sse|streamableHttp` runs @modelcontextprotocol/server-everything. */
export const EVERYTHING_ENTRY = entryOf('@modelcontextprotocol/server-everything');
/** `node <entry> <allowed dir>` runs @modelcontextprotocol/server-filesystem over stdio. */
export const FILESYSTEM_ENTRY = entryOf('@modelcontextprotocol/server-filesystem');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts server-everything over HTTP (`sse` or `streamableHttp`) and waits until it listens. */
export async function startEverythingHttp(mode: 'sse' | 'streamableHttp', port?: number): Promise<RunningServer> {
  port ??= await freePort();
  const child = spawn(process.execPath, [EVERYTHING_ENTRY, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      if (/listening on port|running on port/i.test(seen)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server-everything ${mode} exited (${code}): ${seen}`)));
    setTimeout(() => reject(new Error(`server-everything ${mode} did not start: ${seen}`)), 15_000).unref();
  });
  return {
    port,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** The environment a served agent needs: its data folder and the scripted LLM. */
export function manusEnv(dataDir: string, llmBaseUrl: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return { ...env, ...cliEnv(dataDir, llmBaseUrl) };
}
