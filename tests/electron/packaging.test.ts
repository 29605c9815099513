import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): Record<string, unknown> };

/** the fuse states the packaged binary must carry (names as @electron/fuses spells them) */
const EXPECTED_FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  GrantFileProtocolExtraPrivileges: true,
} as const;

interface FusesModule {
  FuseV1Options: Record<string, number>;
  FuseVersion: { V1: string };
  flipFuses(path: string, config: Record<string, unknown>): Promise<number>;
  getCurrentFuseWire(path: string): Promise<Record<string, unknown>>;
}

/** A file laid out like the fuse wire inside an Electron binary, with Electron's stock defaults. */
function fakeElectronBinary(folder: string): string {
  const path = join(folder, 'electron');
  const stockWire = '10110001';
  const wire = Buffer.concat([
    Buffer.from('some machine code'),
    Buffer.from('dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX'),
    Buffer.from([1, stockWire.length]),
    Buffer.from(stockWire),
    Buffer.from('more machine code'),
  ]);
  writeFileSync(path, wire);
  return path;
}

describe('packaging', () => {
  it('has an electron-builder config that passes its schema, for Linux, macOS and Windows', async () => {
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

  it('flips the security fuses in the packaged binary (electron-builder electronFuses, through @electron/fuses)', async () => {
    const config = yaml.load(readFileSync('electron-builder.yml', 'utf8')) as {
      electronFuses: Record<string, boolean>;
    };
    const fuses = require('@electron/fuses') as FusesModule;
    const { PlatformPackager } = require('app-builder-lib') as {
      PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<Record<string, unknown>> } };
    };
    // electron-builder's own mapping from the yml keys to the fuse wire, run on a binary laid out like Electron's
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call({}, config.electronFuses);
    const folder = mkdtempSync(join(tmpdir(), 'manus-fuses-'));
    try {
      const binary = fakeElectronBinary(folder);
      await fuses.flipFuses(binary, fuseConfig);
      const wire = await fuses.getCurrentFuseWire(binary);
      for (const [name, enabled] of Object.entries(EXPECTED_FUSES)) {
        expect({ name, state: wire[fuses.FuseV1Options[name]] }).toEqual({
          name,
          state: enabled ? '1'.charCodeAt(0) : '0'.charCodeAt(0),
        });
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('runs install scripts only for the dependencies that need them, each one in the lockfile', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts: Record<string, boolean> };
    const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    expect(manifest.allowScripts).toEqual({
      'better-sqlite3': true,
      electron: false,
      esbuild: true,
      'cpu-features': false,
      ssh2: false,
      protobufjs: false,
      'electron-winstaller': false,
    });
    const withScripts = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.hasInstallScript)
      .map(([path]) => path.split('node_modules/').pop());
    // every package of the lockfile with an install script is decided (allowed or denied), and nothing else is listed
    expect([...new Set(withScripts)].sort()).toEqual(Object.keys(manifest.allowScripts).sort());
  });
});

describe('the packaged app as a person first meets it (electron-builder.yml, package.json)', () => {
  const config = yaml.load(readFileSync('electron-builder.yml', 'utf8')) as {
    appId: string;
    files: string[];
    asarUnpack: string[];
    npmRebuild: boolean;
    nodeGypRebuild: boolean;
    buildDependenciesFromSource: boolean;
    directories: { buildResources: string };
    electronFuses: Record<string, boolean>;
    toolsets: { appimage: string };
    linux: { executableName: string };
    deb: { depends: string[] };
  };
  const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
    homepage?: string;
    author?: { name: string; email: string };
    desktopName?: string;
    scripts: Record<string, string>;
  };

  it('re-signs macOS builds ad hoc after the fuses flip, so an unsigned arm64 build launches', async () => {
    expect(config.electronFuses.resetAdHocDarwinSignature).toBe(true);
    const { PlatformPackager } = require('app-builder-lib') as {
      PlatformPackager: { prototype: { generateFuseConfig(fuses: unknown): Promise<Record<string, unknown>> } };
    };
    // electron-builder hands it to @electron/fuses, which signs ad hoc after writing the wire
    const fuseConfig = await PlatformPackager.prototype.generateFuseConfig.call({}, config.electronFuses);
    expect(fuseConfig.resetAdHocDarwinSignature).toBe(true);
  });

  it('rebuilds nothing in node_modules (Node keeps its better-sqlite3; cpu-features is never compiled) and packages the Electron build', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.nodeGypRebuild).toBe(false);
    expect(config.buildDependenciesFromSource).toBe(false);
    expect(config.files).toContain('native/electron/**');
    expect(config.asarUnpack).toContain('**/*.node');
    expect(manifest.scripts.dist).toMatch(/require-electron-sqlite\.mjs && electron-builder --publish never$/);
    const missing = spawnSync(process.execPath, [resolve('scripts/packaging/require-electron-sqlite.mjs')], {
      cwd: tmpdir(),
      encoding: 'utf8',
    });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('native/electron/better_sqlite3.node is missing');
  });

  it('has what the .deb and the desktop integration need: homepage, author, xdg-utils, one desktop file name', () => {
    expect(manifest.homepage).toMatch(/^https:\/\//);
    expect(manifest.author).toMatchObject({ name: expect.any(String), email: expect.stringContaining('@') });
    expect(config.deb.depends).toContain('xdg-utils');
    expect(manifest.desktopName).toBe(`${config.linux.executableName}.desktop`);
    // the statically linked AppImage runtime: no libfuse2 needed
    expect(config.toolsets.appimage).not.toBe('0.0.0');
  });

  it('uses the appId as the Windows AppUserModelID, and ships an icon electron-builder turns into .icns and .ico', async () => {
    const { APP_ID } = await import('../../src/main/electron/app-identity.js');
    expect(config.appId).toBe(APP_ID);
    const icon = readFileSync(join(config.directories.buildResources, 'icon.png'));
    expect(icon.subarray(1, 4).toString('ascii')).toBe('PNG');
    // width and height from the IHDR chunk: macOS needs at least 512×512
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([1024, 1024]);
  });

  it('checks the Linux sandbox before npm start and npm run dev', () => {
    expect(manifest.scripts.start).toMatch(/^node scripts\/linux-sandbox-check\.mjs && /);
    expect(manifest.scripts.dev).toMatch(/^node scripts\/linux-sandbox-check\.mjs && /);
  });
});
