import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEYCHAIN_ACCOUNT_FILE_NAME } from '../../src/main/store/secret-store.js';
import { SECRET_KEY_FILE_NAME } from '../../src/main/store/secrets.js';
import { sequence, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js';
import { CLI_PATH, collect, runCli } from '../support/cli.js';

/** The binaries of a real Secret Service (apt: dbus, gnome-keyring). */
const NEEDED = ['dbus-run-session', 'gnome-keyring-daemon'];
const missing = NEEDED.filter((binary) => {
  try {
    execFileSync('sh', ['-c', `command -v ${binary}`], { stdio: 'ignore' });
    return false;
  } catch {
    return true;
  }
});
if (missing.length > 0) {
  console.warn(
    `keychain-real.integration.test.ts skipped: ${missing.join(', ')} not installed (apt-get install dbus gnome-keyring)`,
  );
}

/**
 * Runs `script` in a private D-Bus session with an unlocked GNOME Keyring, as a desktop login has:
 * the CLI finds a real Secret Service there.
 */
function inKeyringSession(script: string, env: Record<string, string>) {
  const home = mkdtempSync(join(tmpdir(), 'manus-keyring-home-'));
  const unlock = 'printf test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null';
  const child = spawn('dbus-run-session', ['--', 'sh', '-c', `${unlock} && ${script}`], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_RUNTIME_DIR: home,
      NODE: process.execPath,
      CLI: CLI_PATH,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { home, done: collect(child, 60_000) };
}

describe.skipIf(missing.length > 0)('the shared secret store on a real Secret Service', { timeout: 120_000 }, () => {
  let llm: FakeLlm;
  let dataDir: string;
  beforeAll(async () => {
    llm = await startFakeLlm();
    dataDir = mkdtempSync(join(tmpdir(), 'manus-keyring-data-'));
  });
  afterAll(async () => {
    await llm.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the key in GNOME Keyring, not in a key file, and a later process reads the saved API key', async () => {
    llm.setScript(sequence({ text: 'Hello from the keyring run.', toolCalls: [] }));
    const session = inKeyringSession(
      [
        '"$NODE" "$CLI" config set llm.apiKey keyring-kept-key-42',
        '"$NODE" "$CLI" config set llm.baseUrl "$BASE_URL"',
        '"$NODE" "$CLI" config set llm.model test-model',
        '"$NODE" "$CLI" config set agent.maxSteps 1',
        '"$NODE" "$CLI" run --json "Say hello"',
      ].join(' && '),
      { MANUS_DATA_DIR: dataDir, BASE_URL: llm.baseUrl },
    );
    const result = await session.done;
    try {
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(join(session.home, '.local', 'share', 'keyrings'))).toBe(true);
    } finally {
      rmSync(session.home, { recursive: true, force: true });
    }
    expect(existsSync(join(dataDir, KEYCHAIN_ACCOUNT_FILE_NAME))).toBe(true);
    expect(existsSync(join(dataDir, SECRET_KEY_FILE_NAME))).toBe(false);
    const db = new Database(join(dataDir, 'manus.db'), { readonly: true });
    const stored = db.prepare<[], string>("SELECT json FROM settings WHERE key = 'settings'").pluck().get() ?? '';
    db.close();
    expect(stored).toMatch(/"apiKey":"enc:keychain:/);
    expect(stored).not.toContain('keyring-kept-key-42');
    // the run was a separate process: it found the key in the keyring and sent the saved API key
    expect(llm.chatRequests.at(-1)?.headers.authorization).toBe('Bearer keyring-kept-key-42');

    // without that keyring (another login, a locked one) the CLI still starts and names what it cannot read
    const outside = await runCli(['config', 'get', 'agent.maxSteps'], { MANUS_DATA_DIR: dataDir });
    expect(outside.code, outside.stderr).toBe(0);
    expect(outside.stdout).toBe('1\n');
    expect(outside.stderr).toContain('llms.default.apiKey cannot be decrypted');
  });

  it('MANUS_NO_KEYCHAIN=1 keeps the key in the key file even where a keychain works', async () => {
    const ownDataDir = mkdtempSync(join(tmpdir(), 'manus-keyring-off-'));
    const session = inKeyringSession('"$NODE" "$CLI" config set llm.apiKey file-kept-key-42', {
      MANUS_DATA_DIR: ownDataDir,
      MANUS_NO_KEYCHAIN: '1',
    });
    const result = await session.done;
    rmSync(session.home, { recursive: true, force: true });
    try {
      expect(result.code, result.stderr).toBe(0);
      expect(existsSync(join(ownDataDir, SECRET_KEY_FILE_NAME))).toBe(true);
      expect(existsSync(join(ownDataDir, KEYCHAIN_ACCOUNT_FILE_NAME))).toBe(false);
      expect((await runCli(['config', 'get', 'llm.apiKey'], { MANUS_DATA_DIR: ownDataDir })).stdout).toBe('••••y-42\n');
    } finally {
      rmSync(ownDataDir, { recursive: true, force: true });
    }
  });
});
