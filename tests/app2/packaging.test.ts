import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);

describe('packaging', () => {
  it('has an electron-builder config that passes its schema, for Linux, macOS and Windows', async () => {
    const yaml = require('js-yaml') as { load(text: string): Record<string, unknown> };
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration(config: unknown, logger: unknown): Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    const config = yaml.load(readFileSync('electron-builder.yml', 'utf8')) as {
      linux: { target: { target: string }[] };
      mac: { target: { target: string }[] };
      win: { target: { target: string }[] };
      asarUnpack: string[];
    };
    await validateConfiguration(config, new DebugLogger(false));
    expect(config.linux.target.map((target) => target.target)).toEqual(['AppImage', 'deb']);
    expect(config.mac.target.map((target) => target.target)).toEqual(['dmg']);
    expect(config.win.target.map((target) => target.target)).toEqual(['nsis']);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
  });

  it('skips the Electron rebuild with a message (and succeeds) when the Electron binary is absent', () => {
    const folder = mkdtempSync(join(tmpdir(), 'manus-postinstall-'));
    try {
      const result = spawnSync(process.execPath, [resolve('scripts/postinstall.mjs')], {
        cwd: folder,
        encoding: 'utf8',
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/Electron binary is not installed/);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
