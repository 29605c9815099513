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
  stop(): Promise<void>;
}

export interface ServeOptions {
  /** settings saved with `manus config set` before the server starts */
  config?: Record<string, string>;
  env?: Record<string, string>;
}

/**
 * `manus serve --port 0` as a person runs it: the built CLI over a fresh data folder, its model pointed at the
 * scripted LLM through the same environment variables a person would set.
 */
export async function serveApp(script: Script, options: ServeOptions = {}): Promise<ServedApp> {
  await ensureRendererBuilt();
  const llm = await startFakeLlm(script);
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-e2e-'));
  const env = {
    MANUS_DATA_DIR: dataDir,
    MANUS_LLM_BASE_URL: llm.baseUrl,
    MANUS_LLM_API_KEY: 'sk-e2e-test-key',
    MANUS_LLM_MODEL: 'fake-model',
    ...options.env,
  };
  for (const [key, value] of Object.entries(options.config ?? {})) {
    const result = await runCli(['config', 'set', key, value], env);
    if (result.code !== 0) throw new Error(`manus config set ${key} failed: ${result.stderr}`);
  }
  const server = await startServerCli(['serve', '--port', '0'], env, SERVING_LINE);
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
    stop: async () => {
      await server.stop();
      await llm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
