import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeLlm, type FakeLlm, type Script } from '../../support/fake-llm/index.js';
import { runCli } from '../../support/cli.js';
import { startServerCli } from '../../support/server-cli.js';
import { ensureRendererBuilt } from './renderer-build.js';

const SERVING_LINE = /serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/;

export interface ServedApp {
  /** the URL `manus serve` printed, token included */
  url: string;
  origin: string;
  token: string;
  dataDir: string;
  llm: FakeLlm;
  /** everything the server printed, for failure messages */
  logs(): string;
  /** SIGKILL, as a crash or a power cut would: the data folder and the scripted model stay */
  kill(): Promise<void>;
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** settings saved with `manus config set` before the server starts (a function gets the scripted model's URL) */
  config?: Record<string, string> | ((llmBaseUrl: string) => Record<string, string>);
  env?: Record<string, string>;
  /** serve this data folder (another server's, restarted); the caller removes it */
  dataDir?: string;
  /** listen here rather than on a free port (a restart on the same address) */
  port?: number;
  /** more flags for `manus serve` */
  args?: string[];
}

/**
 * `manus serve --port 0` as a person runs it: the built CLI over a fresh data folder, its model pointed at the
 * scripted LLM through the same environment variables a person would set.
 */
export async function serveApp(script: Script, options: ServeOptions = {}): Promise<ServedApp> {
  await ensureRendererBuilt();
  const llm = await startFakeLlm(script);
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'manus-e2e-'));
  const env = {
    MANUS_DATA_DIR: dataDir,
    MANUS_LLM_BASE_URL: llm.baseUrl,
    MANUS_LLM_API_KEY: 'sk-e2e-test-key',
    MANUS_LLM_MODEL: 'fake-model',
    ...options.env,
  };
  const config = typeof options.config === 'function' ? options.config(llm.baseUrl) : (options.config ?? {});
  for (const [key, value] of Object.entries(config)) {
    const result = await runCli(['config', 'set', key, value], env);
    if (result.code !== 0) throw new Error(`manus config set ${key} failed: ${result.stderr}`);
  }
  const server = await startServerCli(
    ['serve', '--port', String(options.port ?? 0), ...(options.args ?? [])],
    env,
    SERVING_LINE,
  );
  const logs = () => server.stdout() + server.stderr();
  const url = SERVING_LINE.exec(logs())![1];
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    dataDir,
    llm,
    logs,
    kill: async () => {
      if (server.child.exitCode !== null || server.child.signalCode !== null) return;
      const exited = new Promise((resolve) => server.child.once('exit', resolve));
      server.child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      await server.stop();
      await llm.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
