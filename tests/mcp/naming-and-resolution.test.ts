import { describe, expect, it } from 'vitest';
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mcpToolName } from '../../src/main/mcp/tool-name.js';
import { findExecutable, mergePaths } from '../../src/main/mcp/command-resolution.js';

describe('mcpToolName', () => {
  it('prefixes and sanitises to the function-name alphabet', () => {
    expect(mcpToolName('my server', 'read.file')).toBe('mcp_my_server_read_file');
    expect(mcpToolName('everything', 'get-tiny-image')).toBe('mcp_everything_get-tiny-image');
  });

  it('cuts long names to 64 characters and keeps them distinct', () => {
    const a = mcpToolName('a-very-long-server-name-for-testing', 'an_equally_long_tool_name_that_goes_on_variant_one');
    const b = mcpToolName('a-very-long-server-name-for-testing', 'an_equally_long_tool_name_that_goes_on_variant_two');
    expect(a).toHaveLength(64);
    expect(b).toHaveLength(64);
    expect(a).not.toBe(b);
    expect(a).toMatch(/^[a-zA-Z0-9_-]+$/);
  });
});

describe('findExecutable', () => {
  it('finds a command on PATH like a shell, skipping files that are not executable', () => {
    const first = mkdtempSync(join(tmpdir(), 'manus-path-a-'));
    const second = mkdtempSync(join(tmpdir(), 'manus-path-b-'));
    writeFileSync(join(first, 'uvx'), 'not executable');
    writeFileSync(join(second, 'uvx'), '#!/bin/sh\n');
    chmodSync(join(second, 'uvx'), 0o755);
    const path = mergePaths('linux', first, second, first);
    expect(path).toBe(`${first}:${second}`);
    expect(findExecutable('uvx', { path, platform: 'linux' })).toBe(join(second, 'uvx'));
    expect(findExecutable('npx-missing', { path, platform: 'linux' })).toBeUndefined();
    expect(findExecutable('node', { path: process.env.PATH ?? '', platform: 'linux' })).toMatch(/node$/);
  });

  it('resolves relative paths against the server cwd', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'manus-cwd-'));
    mkdirSync(join(cwd, 'bin'));
    writeFileSync(join(cwd, 'bin', 'server'), '#!/bin/sh\n');
    chmodSync(join(cwd, 'bin', 'server'), 0o755);
    expect(findExecutable('./bin/server', { path: '', cwd, platform: 'linux' })).toBe(join(cwd, 'bin', 'server'));
  });

  it('finds .cmd shims through PATHEXT on Windows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'manus-win-'));
    writeFileSync(join(dir, 'npx.cmd'), '@echo off\r\n');
    const lookup = { path: `C:\\nowhere;${dir}`, pathExt: '.COM;.EXE;.BAT;.CMD', platform: 'win32' as const };
    expect(findExecutable('npx', lookup)).toBe(join(dir, 'npx.cmd'));
    expect(findExecutable('npx.cmd', lookup)).toBe(join(dir, 'npx.cmd'));
    expect(findExecutable('uvx', lookup)).toBeUndefined();
  });
});
