import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliEnv, runCli } from '../support/cli.js';

const KEY = 'sk-openmanus-0123456789abcdef';
const VISION_KEY = 'sk-vision-0123456789abcdef';

/** OpenManus's config/config.toml as its example has it, filled in. */
const CONFIG_TOML = `
[llm]
model = "claude-3-7-sonnet-20250219"
base_url = "https://api.anthropic.com/v1/"
api_key = "${KEY}"
max_tokens = 8192
temperature = 0.0

[llm.vision]
model = "gpt-4o"
base_url = "https://api.openai.com/v1"
api_key = "${VISION_KEY}"
max_tokens = 4096

[browser]
headless = false
disable_security = true
extra_chromium_args = ["--lang=en"]
chrome_instance_path = "/usr/bin/chromium"
wss_url = "ws://127.0.0.1:9222"

[browser.proxy]
server = "http://proxy.example:3128"
username = "me"
password = "proxy-secret-123"

[search]
engine = "Google"
fallback_engines = ["DuckDuckGo", "Baidu", "Bing"]
retry_delay = 60
max_retries = 3
lang = "en"
country = "us"

[sandbox]
use_sandbox = true
image = "python:3.12-slim"
work_dir = "/workspace"
memory_limit = "1g"
cpu_limit = 2.0
timeout = 300
network_enabled = true

[mcp]
server_reference = "app.mcp.server"

[runflow]
use_data_analysis_agent = true
`;

const MCP_JSON = JSON.stringify({
  mcpServers: {
    files: { type: 'stdio', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
  },
});

let dataDir = '';
let folder = '';
afterEach(() => {
  for (const dir of [dataDir, folder]) if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('`manus config import config.toml` (OpenManus)', () => {
  it('maps llm, llm.vision, browser, search, sandbox and the MCP servers, says what it could not and why, and keeps the keys secret', async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-import-data-'));
    folder = mkdtempSync(join(tmpdir(), 'openmanus-'));
    mkdirSync(join(folder, 'config'));
    const toml = join(folder, 'config', 'config.toml');
    writeFileSync(toml, CONFIG_TOML);
    writeFileSync(join(folder, 'config', 'mcp.json'), MCP_JSON);
    const env = cliEnv(dataDir, 'http://127.0.0.1:9');

    const imported = await runCli(['config', 'import', toml], env);
    // the command from mcp.json is not started before the person has seen it
    expect(imported.stderr).toMatch(
      /^Not confirmed, so not started until you confirm: files\. .*manus mcp confirm NAME/,
    );
    expect(imported.code).toBe(0);
    const out = imported.stdout;
    expect(out).toContain('[llm] model → llms.openmanus (the default provider)');
    expect(out).toContain('[llm] vision → llms.openmanus-vision');
    expect(out).toContain('[search] engine → search.engine');
    expect(out).toContain('[sandbox] memory_limit → sandbox.memoryMb');
    expect(out).toContain('mcp.json files → mcp.servers.files');
    expect(out).toMatch(/Not mapped:[\s\S]*\[browser\] disable_security: the browser keeps its web security on/);
    expect(out).toContain('[browser] wss_url: only a CDP URL');
    expect(out).toContain('[sandbox] image: the sandbox runs its own image');
    expect(out).toContain('[runflow]: flows choose their agents per run');
    expect(out).not.toContain(KEY);

    const settings = JSON.parse((await runCli(['config', 'get'], env)).stdout);
    expect(settings.defaultLlm).toBe('openmanus');
    expect(settings.llms.openmanus).toMatchObject({
      provider: 'compatible',
      model: 'claude-3-7-sonnet-20250219',
      baseUrl: 'https://api.anthropic.com/v1/',
      maxTokens: 8192,
      temperature: 0,
    });
    expect(settings.visionLlm).toBe('openmanus-vision');
    expect(settings.llms['openmanus-vision']).toMatchObject({ provider: 'openai', model: 'gpt-4o' });
    expect(settings.browser).toMatchObject({
      headless: false,
      extraArgs: ['--lang=en'],
      executablePath: '/usr/bin/chromium',
      proxy: { server: 'http://proxy.example:3128', username: 'me' },
    });
    expect(settings.search).toMatchObject({
      engine: 'google',
      fallbackEngines: ['duckduckgo', 'baidu', 'bing'],
      retryDelayMs: 60_000,
      retriesPerEngine: 3,
      lang: 'en',
      country: 'us',
    });
    expect(settings.sandbox).toMatchObject({
      mode: 'docker',
      memoryMb: 1024,
      cpus: 2,
      bashTimeoutSeconds: 300,
      network: true,
    });
    expect(settings.mcp.servers.files).toMatchObject({ type: 'stdio', command: 'npx', unconfirmed: true });

    // the keys went to the secret store: shown masked, and nowhere in the data folder's files in plain text
    expect(JSON.stringify(settings)).not.toContain(KEY);
    expect(JSON.stringify(settings)).not.toContain('proxy-secret-123');
    for (const name of readdirSync(dataDir, { recursive: true }) as string[]) {
      const path = join(dataDir, name);
      let content = '';
      try {
        content = readFileSync(path, 'latin1');
      } catch {
        continue;
      }
      expect(content.includes(KEY), name).toBe(false);
    }
  });
});
