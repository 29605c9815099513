import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir, resolveDataDir, sessionWorkspaceDir } from '../../src/main/store/data-dir.js';
import { tempDir } from './store-fixtures.js';

const posix = process.platform !== 'win32';

describe('resolveDataDir', () => {
  it('prefers the flag, then MANUS_DATA_DIR, then the OS folder', () => {
    const home = tempDir();
    const flag = path.join(home, 'from-flag');
    const fromEnv = path.join(home, 'from-env');
    const env = { MANUS_DATA_DIR: fromEnv, XDG_CONFIG_HOME: path.join(home, 'xdg') };
    expect(resolveDataDir({ dataDir: flag, env, homeDir: home, platform: 'linux' })).toBe(flag);
    expect(resolveDataDir({ env, homeDir: home, platform: 'linux' })).toBe(fromEnv);
    expect(resolveDataDir({ env: { XDG_CONFIG_HOME: path.join(home, 'xdg') }, homeDir: home, platform: 'linux' })).toBe(
      path.join(home, 'xdg', 'manus-desktop'),
    );
    expect(resolveDataDir({ dataDir: '', env: { MANUS_DATA_DIR: '  ' }, homeDir: home, platform: 'linux' })).toBe(
      path.join(home, '.config', 'manus-desktop'),
    );
  });

  it('knows the app-data folder of each OS', () => {
    expect(defaultDataDir('linux', {}, '/home/ana')).toBe('/home/ana/.config/manus-desktop');
    expect(defaultDataDir('linux', { XDG_CONFIG_HOME: '/cfg' }, '/home/ana')).toBe('/cfg/manus-desktop');
    expect(defaultDataDir('darwin', {}, '/Users/ana')).toBe('/Users/ana/Library/Application Support/manus-desktop');
    expect(defaultDataDir('win32', { APPDATA: 'C:\\Users\\ana\\AppData\\Roaming' }, 'C:\\Users\\ana')).toBe(
      'C:\\Users\\ana\\AppData\\Roaming\\manus-desktop',
    );
  });

  it('creates a missing folder, private to the user, and resolves relative paths', () => {
    const base = tempDir();
    const target = path.join(base, 'deep', 'data');
    const resolved = resolveDataDir({ dataDir: path.relative(process.cwd(), target), env: {} });
    expect(resolved).toBe(target);
    expect(fs.statSync(target).isDirectory()).toBe(true);
    if (posix) expect(fs.statSync(target).mode & 0o777).toBe(0o700);
  });

  it('says clearly when the path is a file', () => {
    const file = path.join(tempDir(), 'a-file');
    fs.writeFileSync(file, 'x');
    expect(() => resolveDataDir({ dataDir: file, env: {} })).toThrow(/not a folder|Cannot create the data folder/);
  });

  it('puts session workspaces under <dataDir>/workspaces/<id>', () => {
    expect(sessionWorkspaceDir('/data', 'abc')).toBe(path.join('/data', 'workspaces', 'abc'));
  });
});
