import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/main/store/store.js';
import { openSecretBox } from '../../src/main/store/secret-store.js';
import { credentialStoreIn } from '../../src/main/mcp/oauth/credential-store.js';
import { runCli } from '../support/cli.js';
import { startTestAuthServer } from './support/oauth-server.js';

const FOLLOW_BROWSER = join(import.meta.dirname, 'fixtures', 'follow-browser.mjs');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const auth = await startTestAuthServer();
  const dataDir = mkdtempSync(join(tmpdir(), 'manus-oauth-cli-'));
  cleanups.push(
    () => auth.close(),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const browserLog = join(dataDir, 'browser.log');
  const manus = async (args: string[]) => {
    const result = await runCli(args, {
      MANUS_DATA_DIR: dataDir,
      BROWSER: FOLLOW_BROWSER,
      FOLLOW_BROWSER_LOG: browserLog,
    });
    return result;
  };
  return { auth, dataDir, manus, browserLog };
}

describe('manus mcp login, logout and test with a server behind OAuth', () => {
  it('`manus mcp test` signs in through $BROWSER when the server answers 401, then lists its tools', async () => {
    const { auth, manus, browserLog } = await setup();
    expect((await manus(['mcp', 'add', 'remote', '--url', auth.mcpUrl])).code).toBe(0);

    const tested = await manus(['mcp', 'test', 'remote']);
    expect(tested.code, tested.stderr).toBe(0);
    expect(tested.stderr).toContain('MCP server "remote" asks for a sign-in.');
    expect(tested.stderr).toContain(
      `Waiting for sign-in… (the browser opens; if it does not, visit ${auth.origin}/authorize?`,
    );
    expect(tested.stdout).toContain('Signed in to "remote" (the token expires ');
    expect(tested.stdout).toContain('remote: connected');
    expect(tested.stdout).toMatch(/\n {2}signed in as ada@example\.com \(the token expires \d{4}-/);
    expect(tested.stdout).toContain('whoami — Which client is calling');
    expect(existsSync(browserLog)).toBe(true);

    // signed in now: testing again opens no browser
    const again = await manus(['mcp', 'test', 'remote']);
    expect(again.code).toBe(0);
    expect(again.stderr).not.toContain('asks for a sign-in');
    expect(auth.authorizeRequests).toHaveLength(1);
  });

  it('`manus mcp login` with a pre-registered client (client_secret_post), and `manus mcp logout` forgets the tokens', async () => {
    const { auth, dataDir, manus } = await setup();
    auth.preRegister({
      clientId: 'manus-cli',
      clientSecret: 'cli-client-secret-value',
      authMethod: 'client_secret_post',
    });
    const added = await manus([
      'mcp',
      'add',
      'remote',
      '--url',
      auth.mcpUrl,
      '--client-id',
      'manus-cli',
      '--client-secret',
      'cli-client-secret-value',
      '--token-auth',
      'client_secret_post',
    ]);
    expect(added.code, added.stderr).toBe(0);
    const store = openStore(dataDir);
    const savedSettings = JSON.stringify(store.getSetting('settings'));
    store.close();
    expect(savedSettings).toContain('manus-cli');
    expect(savedSettings).not.toContain('cli-client-secret-value');

    const login = await manus(['mcp', 'login', 'remote']);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain('Signed in to "remote"');
    expect(auth.registeredClients).toEqual([]);
    expect(auth.tokenRequests.map((request) => request.clientAuth)).toEqual(['client_secret_post']);
    const credentials = credentialStoreIn(dataDir, openSecretBox(dataDir));
    expect((await credentials.read('remote'))?.tokens?.access_token).toMatch(/^at-/);

    const logout = await manus(['mcp', 'logout', 'remote']);
    expect(logout.stdout).toBe('Signed out of "remote": its tokens and registered client are forgotten.\n');
    expect(await credentials.read('remote')).toBeUndefined();
    expect(readdirSync(join(dataDir, 'mcp-auth'))).toEqual([]);
  });

  it('refuses to sign in to a local (stdio) server', async () => {
    const { manus } = await setup();
    await manus(['mcp', 'add', 'local', '--', 'node', '--version']);
    const login = await manus(['mcp', 'login', 'local']);
    expect(login.code).not.toBe(0);
    expect(login.stderr).toContain('MCP server "local" runs a local command: there is nothing to sign in to.');
  });
});
