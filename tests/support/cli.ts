import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI_PATH = fileURLToPath(new URL('../../bin/manus.mjs', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `manus` binary with a clean LLM and server-token environment plus `env`. */
export function runCli(
  args: string[],
  env: Record<string, string | undefined> = {},
  options: { timeoutMs?: number; input?: string } = {},
): Promise<CliResult> {
  const child = spawnCli(args, env);
  if (options.input !== undefined) child.stdin?.end(options.input);
  else child.stdin?.end();
  return collect(child, options.timeoutMs ?? 30_000);
}

export function spawnCli(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  const cleanEnv = { ...process.env };
  for (const key of [
    'MANUS_LLM_API_KEY',
    'MANUS_LLM_MODEL',
    'MANUS_LLM_BASE_URL',
    'OPENAI_API_KEY',
    'OPENAI_BASE_URL',
    'MANUS_DATA_DIR',
    'MANUS_A2A_TOKEN',
    'MANUS_MCP_TOKEN',
    'MANUS_SERVE_TOKEN',
  ])
    delete cleanEnv[key];
  return spawn(process.execPath, [CLI_PATH, ...args], {
    env: { ...cleanEnv, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

export function collect(child: ChildProcess, timeoutMs: number): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`manus ${child.spawnargs.slice(2).join(' ')} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The environment of a `manus` run in its own data folder against the scripted model at `llmBaseUrl`. */
export function cliEnv(dataDir: string, llmBaseUrl: string): Record<string, string> {
  return {
    MANUS_DATA_DIR: dataDir,
    MANUS_LLM_BASE_URL: llmBaseUrl,
    MANUS_LLM_API_KEY: 'sk-test',
    MANUS_LLM_MODEL: 'test-model',
  };
}
