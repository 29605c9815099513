import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { McpManager } from '../../src/main/mcp/mcp-manager.js';
import { openStore } from '../../src/main/store/store.js';
import { McpSettingsSchema } from '../../src/shared/settings/mcp-settings.js';
import { mcpLogPath } from '../../src/main/mcp/transport.js';
import { REDACTED, redactText } from '../../src/main/store/redact.js';
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { runCli } from '../support/cli.js';
import { fakeLlmClient } from '../llm/llm-fixture.js';
import { EVERYTHING_ENTRY } from '../mcp/support/reference-servers.js';
import { waitFor } from '../support/wait-for.js';

const TOKEN_SERVER = fileURLToPath(new URL('./mcp-token-server.mjs', import.meta.url));

/** Not shaped like any provider key: only knowing the configured value can catch it. */
function plainSecret(): string {
  return `plain-${randomBytes(12).toString('hex')}`;
}

/** Every row of the given tables (default: all of them), as text. */
function databaseText(dataDir: string, only?: string[]): string {
  const db = new Database(join(dataDir, 'manus.db'), { readonly: true });
  try {
    const tables =
      only ??
      db
        .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
        .all()
        .map((row) => row.name);
    return tables.map((table) => JSON.stringify(db.prepare(`SELECT * FROM "${table}"`).all())).join('\n');
  } finally {
    db.close();
  }
}

describe('a provider error echoing the API key', { timeout: 120_000 }, () => {
  let llm: FakeLlm;
  let dataDir: string;
  let key: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    llm = await startFakeLlm(() => ({ fault: 'unauthorized_echoing_key' }));
  });
  afterAll(async () => {
    await llm.close();
  });
  beforeEach(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'manus-redact-'));
    env = { MANUS_DATA_DIR: dataDir };
    key = plainSecret();
    for (const [name, value] of [
      ['llm.apiKey', key],
      ['llm.baseUrl', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['llm.maxAttempts', '1'],
    ]) {
      const saved = await runCli(['config', 'set', name, value], env);
      expect(saved.code, saved.stderr).toBe(0);
    }
    return () => rmSync(dataDir, { recursive: true, force: true });
  });

  it('is not stored, printed or exported: the events table, CLI output and md/json exports hold no key', async () => {
    const json = await runCli(['run', '--json', 'Say hi'], env);
    const human = await runCli(['run', 'Say hi again'], env);
    // the server did receive the key and did echo it back
    expect(llm.chatRequests.at(-1)?.headers.authorization).toBe(`Bearer ${key}`);
    for (const result of [json, human]) {
      expect(result.code).toBe(1);
      expect(result.stdout + result.stderr).not.toContain(key);
      expect(result.stdout + result.stderr).toContain('Incorrect API key provided');
    }
    expect(human.stderr + human.stdout).toContain(REDACTED);

    const stored = databaseText(dataDir);
    expect(stored).toContain('Incorrect API key provided');
    expect(stored).not.toContain(key);

    const sessions = JSON.parse((await runCli(['sessions', 'list', '--json'], env)).stdout) as { id: string }[];
    expect(sessions).toHaveLength(2);
    for (const { id } of sessions) {
      for (const format of ['md', 'json']) {
        const exported = await runCli(['sessions', 'export', id, '--format', format], env);
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stdout).toContain('Incorrect API key provided');
        expect(exported.stdout).not.toContain(key);
      }
      expect((await runCli(['sessions', 'show', id], env)).stdout).not.toContain(key);
    }
  });

  it('rows stored before redaction existed are still exported and shown without the key', async () => {
    await runCli(['run', '--json', 'Say hi'], env);
    const [{ id }] = JSON.parse((await runCli(['sessions', 'list', '--json'], env)).stdout) as { id: string }[];
    const store = openStore(dataDir);
    store.appendEvent({
      type: 'message',
      sessionId: id,
      messageId: 'old-row',
      role: 'assistant',
      text: `Old reply quoting ${key} as it was stored then.`,
      delta: false,
      ts: Date.now(),
    });
    store.close();
    for (const args of [
      ['sessions', 'export', id, '--format', 'md'],
      ['sessions', 'export', id, '--format', 'json'],
      ['sessions', 'show', id],
    ]) {
      const shown = await runCli(args, env);
      expect(shown.stdout).toContain(`Old reply quoting ${REDACTED} as it was stored then.`);
      expect(shown.stdout).not.toContain(key);
    }
  });

  it('a key in the environment is redacted too (MANUS_LLM_API_KEY over the saved one)', async () => {
    const envKey = plainSecret();
    const result = await runCli(['run', '--json', 'Say hi'], { ...env, MANUS_LLM_API_KEY: envKey });
    expect(llm.chatRequests.at(-1)?.headers.authorization).toBe(`Bearer ${envKey}`);
    expect(result.code).toBe(1);
    expect(result.stdout + result.stderr).not.toContain(envKey);
    expect(databaseText(dataDir)).not.toContain(envKey);
  });
});

describe('the event bus redacts configured secrets from every event', { timeout: 120_000 }, () => {
  let llm: FakeLlm;
  let dataDir: string;
  afterEach(async () => {
    await llm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a model reply quoting the saved key (no error involved) is stored and printed redacted', async () => {
    const key = plainSecret();
    llm = await startFakeLlm(() => ({
      text: `The key you configured is ${key}, keep it safe.`,
      toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
    }));
    dataDir = mkdtempSync(join(tmpdir(), 'manus-redact-bus-'));
    const env = { MANUS_DATA_DIR: dataDir };
    for (const [name, value] of [
      ['llm.apiKey', key],
      ['llm.baseUrl', llm.baseUrl],
      ['llm.model', 'test-model'],
    ])
      expect((await runCli(['config', 'set', name, value], env)).code).toBe(0);
    const result = await runCli(['run', '--json', 'What is my key?'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`The key you configured is ${REDACTED}, keep it safe.`);
    expect(result.stdout + result.stderr).not.toContain(key);
    // the model's own memory keeps what it said; what is shown, searched and exported does not
    expect(databaseText(dataDir, ['events', 'message_fts'])).not.toContain(key);
    expect(databaseText(dataDir, ['events'])).toContain(`The key you configured is ${REDACTED}`);
  });
});

describe('a streamed reply that splits a saved key between two chunks', { timeout: 60_000 }, () => {
  let llm: FakeLlm;
  let dataDir: string;
  afterEach(async () => {
    await llm?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('holds the first part back until the key is whole, so no chunk carries any of it', async () => {
    const key = plainSecret();
    // one word: the fake server streams it in two halves, cutting the key in the middle
    llm = await startFakeLlm(() => ({ text: `Key:${key}` }));
    dataDir = mkdtempSync(join(tmpdir(), 'manus-redact-stream-'));
    const env = { MANUS_DATA_DIR: dataDir };
    for (const [name, value] of [
      ['llm.apiKey', key],
      ['llm.baseUrl', llm.baseUrl],
      ['llm.model', 'test-model'],
      ['agent.maxSteps', '1'],
    ])
      expect((await runCli(['config', 'set', name, value], env)).code).toBe(0);
    const result = await runCli(['run', '--json', 'Echo my key'], env);
    const deltas = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; delta?: boolean; text?: string })
      .filter((event) => event.type === 'message' && event.delta);
    expect(deltas.length).toBeGreaterThan(0);
    expect(deltas.map((event) => event.text).join('')).toBe(`Key:${REDACTED}`);
    const firstHalf = key.slice(0, key.length / 2);
    expect(result.stdout).not.toContain(firstHalf);
    expect(databaseText(dataDir, ['events'])).not.toContain(firstHalf);
  });
});

describe('which values count as secrets', () => {
  it("blanks a configured key but not a local server's placeholder key, which is also a model name", () => {
    const text = 'model ollama/llama3 with key ollama; other key plain-0123456789';
    expect(redactText(text, ['ollama', 'plain-0123456789'])).toBe(
      `model ollama/llama3 with key ollama; other key ${REDACTED}`,
    );
  });
});

describe('LlmError from a 401 that quotes the key', () => {
  it('carries neither the configured key nor a key-shaped string in its message', async () => {
    const key = plainSecret();
    const { llm } = await fakeLlmClient(() => ({ fault: 'unauthorized_echoing_key' }), { apiKey: key });
    const error = (await llm.ask([{ role: 'user', content: 'hi' }]).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toContain('Incorrect API key provided');
    expect(error.message).not.toContain(key);

    const shaped = `sk-${randomBytes(16).toString('hex')}`;
    const second = await fakeLlmClient(() => ({ fault: 'status', status: 400, message: `bad key ${shaped}` }));
    const refused = (await second.llm
      .ask([{ role: 'user', content: 'hi' }])
      .catch((caught: unknown) => caught)) as Error;
    expect(refused.message).toContain('bad key');
    expect(refused.message).not.toContain(shaped);
  });
});

describe("an MCP server's stderr log", { timeout: 60_000 }, () => {
  it('holds its token redacted, even when the server prints it in two pieces', async () => {
    const token = plainSecret();
    const logDir = mkdtempSync(join(tmpdir(), 'manus-mcp-redact-'));
    const manager = new McpManager(logDir);
    try {
      await manager.apply(
        McpSettingsSchema.parse({
          servers: {
            leaky: {
              type: 'stdio',
              command: process.execPath,
              args: [TOKEN_SERVER, EVERYTHING_ENTRY, 'stdio'],
              env: { SERVICE_API_TOKEN: token },
            },
          },
        }),
      );
      expect(manager.status('leaky')?.status, manager.status('leaky')?.error).toBe('connected');
      const log = () => readFileSync(mcpLogPath(logDir, 'leaky'), 'utf8');
      await waitFor(() => log().includes('Starting default (STDIO) server'), 10_000, 'the server started');
      expect(log()).toContain(`config: token=${REDACTED} loaded`);
      expect(log()).not.toContain(token);
      expect(log()).not.toContain(token.slice(7));
    } finally {
      await manager.close();
      rmSync(logDir, { recursive: true, force: true });
    }
  });
});
