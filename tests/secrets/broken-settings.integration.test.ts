import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SECRET_KEY_FILE_NAME } from '../../src/main/store/secrets.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { runCli } from '../support/cli.js';

const finish = (text: string) => ({
  text,
  toolCalls: [{ name: 'terminate', arguments: { status: 'success' } }],
});

let llm: FakeLlm;
let dataDir: string;
let env: Record<string, string>;

beforeAll(async () => {
  llm = await startFakeLlm();
});
afterAll(async () => {
  await llm.close();
});
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'manus-broken-settings-'));
  env = { MANUS_DATA_DIR: dataDir };
  for (const [key, value] of [
    ['llm.apiKey', 'saved-key-0123456789'],
    ['llm.baseUrl', llm.baseUrl],
    ['llm.model', 'test-model'],
    ['agent.maxSteps', '7'],
    ['sandbox.mode', 'local'],
  ]) {
    const saved = await runCli(['config', 'set', key, value], env);
    expect(saved.code, saved.stderr).toBe(0);
  }
  return () => rmSync(dataDir, { recursive: true, force: true });
});

/** Writes the settings row as given, as a damaged disk or an old version could leave it (CHECKs off). */
function writeSettingsRow(edit: (json: string) => string): void {
  const db = new Database(join(dataDir, 'manus.db'));
  try {
    db.pragma('ignore_check_constraints = ON');
    const json = db.prepare<[], string>("SELECT json FROM settings WHERE key = 'settings'").pluck().get()!;
    db.prepare("UPDATE settings SET json = ? WHERE key = 'settings'").run(edit(json));
  } finally {
    db.close();
  }
}

function editSettings(change: (settings: Record<string, Record<string, unknown>>) => void): void {
  writeSettingsRow((json) => {
    const settings = JSON.parse(json);
    change(settings);
    return JSON.stringify(settings);
  });
}

async function runTask(): Promise<{ code: number | null; output: string }> {
  llm.setScript(sequence(finish('Done despite the broken setting.')));
  const result = await runCli(['run', 'Do the thing'], env);
  return { code: result.code, output: result.stdout + result.stderr };
}

describe('a broken setting never locks the user out', { timeout: 180_000 }, () => {
  it('a value failing its schema: reported by name, the rest kept, `config reset KEY` fixes it', async () => {
    editSettings((settings) => {
      settings.sandbox.network = 'yes please';
    });
    const get = await runCli(['config', 'get', 'agent.maxSteps'], env);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toBe('7\n');
    expect(get.stderr).toContain('The setting sandbox.network is not valid');
    expect(get.stderr).toContain('manus config reset sandbox.network');

    const run = await runTask();
    expect(run.code, run.output).toBe(0);
    expect(run.output).toContain('Done despite the broken setting.');
    expect(run.output).toContain('manus config reset sandbox.network');
    expect(llm.chatRequests.at(-1)?.headers.authorization).toBe('Bearer saved-key-0123456789');

    const reset = await runCli(['config', 'reset', 'sandbox.network'], env);
    expect(reset.code, reset.stderr).toBe(0);
    const after = await runCli(['config', 'get', 'sandbox'], env);
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout)).toMatchObject({ network: false, mode: 'local' });
    expect((await runCli(['config', 'get', 'llm.apiKey'], env)).stdout).toBe('••••6789\n');
  });

  it('a secret whose key is lost: reported by name, everything else works, `config reset` clears it', async () => {
    rmSync(join(dataDir, SECRET_KEY_FILE_NAME));
    const get = await runCli(['config', 'get', 'llm.model'], env);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stdout).toBe('test-model\n');
    expect(get.stderr).toContain('The setting llms.default.apiKey cannot be decrypted');
    expect(get.stderr).toContain('manus config reset llms.default.apiKey');

    // the run starts, with the key from the environment instead
    llm.setScript(sequence(finish('Ran with the env key.')));
    const run = await runCli(['run', 'Go'], { ...env, MANUS_LLM_API_KEY: 'env-key-abcdef' });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Ran with the env key.');
    expect(run.stdout + run.stderr).toContain('llms.default.apiKey cannot be decrypted');

    expect((await runCli(['config', 'reset', 'llm.apiKey'], env)).code).toBe(0);
    const after = await runCli(['config', 'get', 'agent'], env);
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout)).toMatchObject({ maxSteps: 7 });
  });

  it('settings that are not JSON: a backup is kept, the CLI runs on defaults, `config reset --all` starts afresh', async () => {
    let broken = '';
    writeSettingsRow((json) => (broken = `${json.slice(0, 40)} <truncated by a crash`));
    const get = await runCli(['config', 'get'], env);
    expect(get.code, get.stderr).toBe(0);
    expect(get.stderr).toContain('The saved settings are not valid JSON');
    expect(get.stderr).toContain('manus config reset --all');
    const backups = readdirSync(dataDir).filter((name) => name.startsWith('settings-backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dataDir, backups[0]), 'utf8')).toBe(broken);

    // other keys cannot be reset one by one in a record that does not parse; saying so changes nothing
    const one = await runCli(['config', 'reset', 'agent.maxSteps'], env);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain('manus config reset --all');

    const all = await runCli(['config', 'reset', '--all'], env);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain(backups[0]);
    expect(existsSync(join(dataDir, backups[0]))).toBe(true);
    const after = await runCli(['config', 'get', 'agent.maxSteps'], env);
    expect(after.stderr).toBe('');
    expect(after.stdout).toBe('20\n');
    expect((await runCli(['config', 'set', 'agent.maxSteps', '9'], env)).code).toBe(0);
  });
});
