import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { startFakeLlm, type FakeLlm, type Script } from '../../support/fake-llm/index.js';
import { runCli, spawnCli } from '../../support/cli.js';
import { ensureRendererBuilt } from './renderer-build.js';

const SERVING_LINE = /serving on (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/;
const START_TIMEOUT_MS = 20_000;
const STOP_TIMEOUT_MS = 5_000;

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

/**
 * `manus serve --port 0` as a person runs it: the built CLI over a fresh data folder, its model pointed at the
 * scripted LLM through the same environment variables a person would set.
 */
export async function serveApp(
  script: Script,
  options: { config?: Record<string, string>; env?: Record<string, string> } = {},
): Promise<ServedApp> {
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
  const child = spawnCli(['serve', '--port', '0'], env);
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const url = await waitForUrl(child, () => output);
  const parsed = new URL(url);
  return {
    url,
    origin: parsed.origin,
    token: parsed.searchParams.get('token')!,
    dataDir,
    llm,
    logs: () => output,
    stop: async () => {
      await stopChild(child);
      await llm.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function waitForUrl(child: ChildProcess, output: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`manus serve did not start:\n${output()}`));
    }, START_TIMEOUT_MS);
    const check = () => {
      const match = SERVING_LINE.exec(output());
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve(match[1]);
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`manus serve exited with ${code}:\n${output()}`));
    });
  });
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}
