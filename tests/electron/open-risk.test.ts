import { chmodSync, mkdirSync, mkdtempSync, lstatSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { downloadMark, openRisk } from '../../src/main/electron/open-risk.js';

const folder = mkdtempSync(join(tmpdir(), 'manus-open-risk-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** a real file of the workspace, with the mode the agent gave it */
function written(name: string, mode = 0o644): string {
  const path = join(folder, name);
  if (name.endsWith('/')) mkdirSync(path, { recursive: true });
  else writeFileSync(path, '#!/bin/sh\necho pwned\n');
  chmodSync(path, name.endsWith('/') ? 0o755 : mode);
  return path;
}

const riskOf = (path: string, platform: NodeJS.Platform) => openRisk(path, lstatSync(path), platform).kind;

describe('"Open in system" never runs what the agent wrote on one click', () => {
  it('asks first for programs, scripts, shortcuts and installers of every OS, whatever the case of the name', () => {
    const runnable = ['x.bat', 'x.CMD', 'x.exe', 'x.com', 'x.msi', 'x.ps1', 'x.vbs', 'x.js', 'x.jse', 'x.wsf', 'x.scr'];
    runnable.push('x.hta', 'x.lnk', 'x.url', 'x.reg', 'x.command', 'x.jar', 'x.desktop', 'x.sh', 'x.AppImage', 'x.run');
    runnable.push('x.py', 'x.pkg', 'x.deb', 'x.scpt', 'x.terminal', 'x.webloc');
    for (const name of runnable) {
      const path = written(name);
      for (const platform of ['win32', 'darwin', 'linux'] as const)
        expect({ name, platform, risk: riskOf(path, platform) }).toEqual({ name, platform, risk: 'confirm' });
    }
  });

  it('asks first for a macOS app bundle, a folder', () => {
    expect(riskOf(written('Helper.app/'), 'darwin')).toBe('confirm');
  });

  it('asks first for a file with an execute bit on macOS and Linux, whatever its name', () => {
    const path = written('report.txt', 0o755);
    expect(riskOf(path, 'linux')).toBe('confirm');
    expect(riskOf(path, 'darwin')).toBe('confirm');
    expect(openRisk(path, lstatSync(path), 'linux')).toEqual({ kind: 'confirm', reason: 'executable-bit' });
  });

  it('takes "x.bat." and "x.bat " on Windows for the x.bat they run as', () => {
    expect(openRisk(join(folder, 'x.bat.'), { isFile: () => true, mode: 0o644 }, 'win32').kind).toBe('confirm');
    expect(openRisk(join(folder, 'x.bat  '), { isFile: () => true, mode: 0o644 }, 'win32').kind).toBe('confirm');
  });

  it('opens documents, images, data and ordinary folders directly', () => {
    for (const name of ['report.pdf', 'chart.png', 'data.csv', 'notes.md', 'page.html', 'sheet.xlsx', 'out/']) {
      expect({ name, risk: riskOf(written(name), 'linux') }).toEqual({ name, risk: 'open' });
      expect({ name, risk: riskOf(written(name), 'darwin') }).toEqual({ name, risk: 'open' });
    }
  });
});

describe('what the sandbox wrote is marked as downloaded before it opens', () => {
  const now = new Date('2026-11-27T12:00:00Z');

  it('sets the quarantine attribute on macOS (recursive for a bundle), naming the app and the time', () => {
    expect(downloadMark('/w/x.command', false, 'darwin', now)).toEqual({
      kind: 'xattr',
      command: 'xattr',
      args: ['-w', 'com.apple.quarantine', `0081;${(now.getTime() / 1000).toString(16)};Manus;`, '/w/x.command'],
    });
    expect(downloadMark('/w/Helper.app', true, 'darwin', now)).toMatchObject({
      args: ['-r', '-w', 'com.apple.quarantine', expect.any(String), '/w/Helper.app'],
    });
  });

  it('writes the Mark of the Web (Internet zone) into the Zone.Identifier stream on Windows', () => {
    expect(downloadMark('C:\\w\\x.bat', false, 'win32', now)).toEqual({
      kind: 'zone-identifier',
      streamPath: 'C:\\w\\x.bat:Zone.Identifier',
      content: '[ZoneTransfer]\r\nZoneId=3\r\n',
    });
  });

  it('has nothing to mark on Linux', () => {
    expect(downloadMark('/w/x.sh', false, 'linux', now)).toBeUndefined();
  });
});
