import { describe, expect, it } from 'vitest';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { FileKeySecretBox, type SecretBox } from '../../src/main/store/secrets.js';
import {
  collectSecrets,
  decryptSettingsSecrets,
  encryptSettingsSecrets,
  loadSettings,
  maskSecrets,
  restoreMaskedSecrets,
  saveSettings,
  SETTINGS_KEY,
} from '../../src/main/store/settings-secrets.js';
import { tempDir, tempStore } from './store-fixtures.js';

const LLM_KEY = 'sk-test-0123456789abcdef';
const SEARCH_KEY = 'tvly-abcdefghijkl';
const PROXY_PASSWORD = 'pr0xy-pass';
const MCP_TOKEN = 'Bearer mcp-token-1234567890';
const MCP_ENV_SECRET = 'gh-secret-value-9876';

function sampleSettings() {
  return AppSettingsSchema.parse({
    llms: { main: { model: 'gpt-4o', apiKey: LLM_KEY }, local: { model: 'llama3', provider: 'compatible' } },
    search: { engines: { tavily: { apiKey: SEARCH_KEY } } },
    browser: { proxy: { server: 'http://127.0.0.1:3128', username: 'ana', password: PROXY_PASSWORD } },
    mcp: {
      servers: {
        remote: {
          type: 'http',
          url: 'http://127.0.0.1:9000/mcp',
          headers: { Authorization: MCP_TOKEN, Accept: 'json' },
        },
        github: { type: 'stdio', command: 'gh-mcp', env: { GITHUB_TOKEN: MCP_ENV_SECRET, LOG_LEVEL: 'debug' } },
      },
    },
  });
}

describe('settings secrets', () => {
  it('encrypts every secret field and nothing else, and decrypts back to the same settings', () => {
    const box = FileKeySecretBox.inDataDir(tempDir());
    const settings = sampleSettings();
    const encrypted = encryptSettingsSecrets(settings, box);
    const text = JSON.stringify(encrypted);
    for (const secret of [LLM_KEY, SEARCH_KEY, PROXY_PASSWORD, MCP_TOKEN, MCP_ENV_SECRET])
      expect(text).not.toContain(secret);
    expect(encrypted.llms.main.apiKey).toMatch(/^enc:file-key:v1:/);
    expect(encrypted.mcp.servers.remote).toMatchObject({ headers: { Accept: 'json' } });
    expect(encrypted.mcp.servers.github).toMatchObject({ env: { LOG_LEVEL: 'debug' } });
    expect(encrypted.browser.proxy?.username).toBe('ana');
    expect(encryptSettingsSecrets(encrypted, box)).toEqual(encrypted);
    expect(decryptSettingsSecrets(encrypted, box)).toEqual(settings);
    expect(collectSecrets(settings).sort()).toEqual(
      [LLM_KEY, MCP_ENV_SECRET, MCP_TOKEN, PROXY_PASSWORD, SEARCH_KEY].sort(),
    );
  });

  it('saves encrypted in the store and loads decrypted', () => {
    const { store, dataDir } = tempStore();
    const box = FileKeySecretBox.inDataDir(dataDir);
    const settings = sampleSettings();
    saveSettings(store, box, settings);
    expect(JSON.stringify(store.getSetting(SETTINGS_KEY))).not.toContain(LLM_KEY);
    expect(loadSettings(store, box)).toEqual(settings);
    expect(loadSettings(store, FileKeySecretBox.inDataDir(dataDir))).toEqual(settings);
  });

  it('reads plain values stored before encryption, and names a secret sealed by another kind of box', () => {
    const box = FileKeySecretBox.inDataDir(tempDir());
    expect(decryptSettingsSecrets({ llms: { a: { apiKey: 'plain-old' } } }, box)).toEqual({
      llms: { a: { apiKey: 'plain-old' } },
    });
    const safeStorageLike: SecretBox = {
      kind: 'safe-storage',
      encrypt: (plain) => `x${plain}`,
      decrypt: (cipher) => cipher.slice(1),
    };
    const sealed = encryptSettingsSecrets({ llms: { a: { apiKey: 'k' } } }, safeStorageLike);
    expect(() => decryptSettingsSecrets(sealed, box)).toThrow(
      /llms\.a\.apiKey cannot be read: it was encrypted with "safe-storage"/,
    );
  });

  it('masks secrets for the renderer, showing at most the last 4 characters of long ones', () => {
    const masked = maskSecrets(sampleSettings());
    expect(masked.llms.main.apiKey).toBe('••••cdef');
    expect(masked.browser.proxy?.password).toBe('••••');
    expect(masked.mcp.servers.remote).toMatchObject({ headers: { Authorization: '••••7890', Accept: 'json' } });
    expect(masked.llms.local.apiKey).toBeUndefined();
    expect(JSON.stringify(masked)).not.toContain(LLM_KEY);
  });

  it('keeps the stored secret when a renderer sends the masked value back unchanged', () => {
    const current = sampleSettings();
    const edited = maskSecrets(current);
    edited.search.engines.tavily = { apiKey: 'new-search-key-value' };
    const restored = restoreMaskedSecrets(edited, current);
    expect(restored.llms.main.apiKey).toBe(LLM_KEY);
    expect(restored.browser.proxy?.password).toBe(PROXY_PASSWORD);
    expect(restored.search.engines.tavily?.apiKey).toBe('new-search-key-value');
  });
});
