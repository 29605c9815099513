import { describe, expect, it } from 'vitest';
import { AppSettingsSchema } from '../../src/shared/settings/app-settings.js';
import { findUnknownKey, findUnknownKeys } from '../../src/shared/settings/settings-keys.js';
import { CONTRACT } from '../../src/shared/contract.js';

describe('settings keys', () => {
  it('knows nested, record and union keys, and names the closest known key to an unknown one', () => {
    expect(findUnknownKey(AppSettingsSchema, 'sandbox.network')).toBeUndefined();
    expect(findUnknownKey(AppSettingsSchema, 'llms.work.apiKey')).toBeUndefined();
    expect(findUnknownKey(AppSettingsSchema, 'mcp.servers.files.oauth.scope')).toBeUndefined();
    expect(findUnknownKey(AppSettingsSchema, 'search.engines.tavily.apiKey')).toBeUndefined();
    expect(findUnknownKey(AppSettingsSchema, 'planAct.maxReplan')).toEqual({
      key: 'planAct.maxReplan',
      closest: 'planAct.maxReplans',
    });
    expect(findUnknownKey(AppSettingsSchema, 'search.engines.bingo.apiKey')?.closest).toBe(
      'search.engines.bing.apiKey',
    );
    expect(findUnknownKey(AppSettingsSchema, 'sandbox.network.extra')).toBeDefined();
  });

  it('the settings request refuses an object with an unknown key instead of dropping it', () => {
    const request = CONTRACT.updateSettings.request;
    expect(findUnknownKeys(AppSettingsSchema, { browser: { headles: true } })).toEqual(['browser.headles']);
    const refused = request.safeParse({ settings: { browser: { headles: true } } });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0].message).toBe(
      '"browser.headles" is not a setting. Did you mean "browser.headless"?',
    );
    expect(request.safeParse({ settings: { browser: { headless: true } } }).success).toBe(true);
  });
});
