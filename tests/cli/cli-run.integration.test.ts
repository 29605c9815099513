import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CoreEventSchema, type CoreEvent } from '../../src/shared/events.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { cliEnv, runCli } from '../support/cli.js';

const call = (name: string, args: unknown) => ({ name, arguments: JSON.stringify(args) });
const finish = (text: string) => ({ text, toolCalls: [call('terminate', { status: 'success' })] });

let llm: FakeLlm;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-cli-'));
  env = cliEnv(dataDir, llm.baseUrl);
  return () => rmSync(dataDir, { recursive: true, force: true });
});

function parseNdjson(stdout: string): CoreEvent[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => CoreEventSchema.parse(JSON.parse(line)));
}

describe('manus run', { timeout: 180_000 }, () => {
  it('prints --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('run [options] <task...>');
    expect(result.stdout).toContain('sessions');
  });

  it('--json prints exactly one schema-valid event per line and exits 0', async () => {
    llm.setScript(
      sequence(
        { text: 'Working on it.', toolCalls: [call('ask_human', { inquire: 'Which season?' })] },
        finish('Here is your haiku.'),
      ),
    );
    const result = await runCli(['run', '--json', 'Write a haiku'], env);
    expect(result.code, result.stderr).toBe(0);
    const events = parseNdjson(result.stdout);
    expect(events[0]).toMatchObject({ type: 'session', action: 'created' });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'finished', result: 'Here is your haiku.' });
    // no terminal on stdin: the question comes back to the model as a readable tool error
    const asked = events.find((e) => e.type === 'tool' && e.name === 'ask_human' && e.status === 'error');
    expect(asked?.type === 'tool' && asked.error).toContain('Nobody can answer');
    expect(events.filter((e) => e.type === 'message' && e.delta).length).toBeGreaterThan(1);
  });

  it('streams text and tool calls for a person, and saves the session', async () => {
    llm.setScript(sequence(finish('Plain answer for a person.')));
    const result = await runCli(['run', 'Hello', 'there'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('Plain answer for a person.');
    expect(result.stdout).toContain('⚙ terminate');
    const list = await runCli(['sessions', 'list', '--json'], env);
    const sessions = JSON.parse(list.stdout);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ title: 'Hello there', status: 'finished', model: 'test-model' });
  });

  it('continues a session with --session', async () => {
    llm.setScript(sequence(finish('First.'), finish('Second.')));
    const first = parseNdjson((await runCli(['run', '--json', 'Remember KIWI'], env)).stdout);
    const sessionId = first[0].sessionId;
    const second = await runCli(['run', '--json', '--session', sessionId, 'What did I say?'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.stringify(llm.chatRequests.at(-1)!.body.messages)).toContain('Remember KIWI');
  });

  it('exits non-zero with one line when no API key is set', async () => {
    const result = await runCli(['run', 'anything'], { MANUS_DATA_DIR: dataDir });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^manus: No language model is configured\./);
  });

  it('exits non-zero with a readable reason when the endpoint is unreachable', async () => {
    const result = await runCli(
      ['run', 'anything'],
      { ...env, MANUS_LLM_BASE_URL: 'http://127.0.0.1:9/v1' },
      { timeoutMs: 60_000 },
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/manus: failed: .+/);
  });

  it('manages sessions: show, rename, export, delete', async () => {
    llm.setScript(sequence(finish('Exported answer.')));
    const events = parseNdjson((await runCli(['run', '--json', 'Export me'], env)).stdout);
    const id = events[0].sessionId;
    expect((await runCli(['sessions', 'show', id], env)).stdout).toContain('Exported answer.');
    expect((await runCli(['sessions', 'rename', id, 'Renamed', 'title'], env)).code).toBe(0);
    const md = join(dataDir, 'out.md');
    expect((await runCli(['sessions', 'export', id, '--format', 'md', '--output', md], env)).code).toBe(0);
    expect(readFileSync(md, 'utf8')).toContain('Renamed title');
    const json = JSON.parse((await runCli(['sessions', 'export', id, '--format', 'json'], env)).stdout);
    expect(JSON.stringify(json)).toContain('Exported answer.');
    expect(JSON.stringify(json)).not.toContain('sk-test');
    expect((await runCli(['sessions', 'delete', id], env)).code).toBe(0);
    expect(JSON.parse((await runCli(['sessions', 'list', '--json'], env)).stdout)).toEqual([]);
    const missing = await runCli(['sessions', 'show', id], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`No session with id ${id}`);
  });

  it('saves settings with config set/get, masking the key', async () => {
    const base = { MANUS_DATA_DIR: dataDir };
    expect((await runCli(['config', 'set', 'llm.apiKey', 'sk-secret-1234'], base)).code).toBe(0);
    expect((await runCli(['config', 'set', 'llm.baseUrl', llm.baseUrl], base)).code).toBe(0);
    expect((await runCli(['config', 'set', 'sandbox.network', 'true'], base)).code).toBe(0);
    const all = await runCli(['config', 'get'], base);
    expect(all.stdout).not.toContain('sk-secret-1234');
    expect(all.stdout).toContain('1234');
    expect((await runCli(['config', 'get', 'sandbox.network'], base)).stdout.trim()).toBe('true');
    const bad = await runCli(['config', 'set', 'sandbox.memoryMb', '"lots"'], base);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('sandbox.memoryMb');
    llm.setScript(sequence(finish('Saved settings work.')));
    const run = await runCli(['run', 'use saved settings'], base);
    expect(run.code, run.stderr).toBe(0);
    expect(llm.chatRequests.at(-1)!.headers.authorization).toBe('Bearer sk-secret-1234');
  });
});
