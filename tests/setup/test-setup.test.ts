import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const SCRIPT = resolve('scripts/test-setup.sh');
// what the script itself runs; everything the tests need (docker, chromium, shellcheck...) is left out
const BASIC_COMMANDS = ['bash', 'dirname', 'id', 'grep', 'mkdir', 'mv', 'sed', 'seq', 'sleep'];

/** A PATH holding only the basic commands: a machine with nothing installed for the tests (and no apt-get). */
let barePath: string;
beforeAll(() => {
  barePath = mkdtempSync(join(tmpdir(), 'manus-bare-path-'));
  for (const command of BASIC_COMMANDS) {
    const found = spawnSync('bash', ['-c', `command -v ${command}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(barePath, command));
  }
});
afterAll(() => rmSync(barePath, { recursive: true, force: true }));

const runSetup = (args: string[]) =>
  spawnSync(join(barePath, 'bash'), [SCRIPT, ...args], {
    encoding: 'utf8',
    env: { PATH: barePath, HOME: tmpdir() },
    timeout: 30_000,
  });

describe('scripts/test-setup.sh, the set-up npm test runs first', () => {
  it('on a machine without the tools, lists each missing part with the command that provides it, and fails', () => {
    const result = runSetup(['--check']);
    expect(result.status).toBe(1);
    const listed = result.stdout.split('\n').filter((line) => line.startsWith('  - '));
    const parts = [
      'docker.io',
      'chromium',
      'dbus',
      'gnome-keyring',
      'iproute2',
      'openssh-client',
      'openssl',
      'python3',
      'pyflakes3',
      'shellcheck',
      'fonts-wqy-microhei',
      'debootstrap',
    ];
    // on Debian/Ubuntu the apt-get command, elsewhere the package's name
    for (const aptPackage of parts) {
      const command = new RegExp(`: (sudo apt-get install -y ${aptPackage}|.*package is ${aptPackage}\\))$`);
      expect(listed.filter((line) => command.test(line))).toHaveLength(1);
    }
    expect(listed.find((line) => line.includes('a running Docker engine'))).toMatch(/systemctl start docker/);
    expect(listed.find((line) => line.startsWith('  - the sandbox image'))).toMatch(
      /scripts\/sandbox\/build-offline\.sh$/,
    );
    expect(listed.find((line) => line.includes('second Docker engine'))).toMatch(
      /scripts\/sandbox\/second-engine\.sh$/,
    );
    expect(listed).toHaveLength(parts.length + 3);
  });

  it('installs nothing without apt-get (another distribution, macOS), even as root: it lists and fails', () => {
    const result = runSetup([]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/npm test needs these, and does not run without them/);
    expect(result.stdout).not.toMatch(/installing/);
  });

  it('refuses an argument it does not know', () => {
    const result = runSetup(['--force']);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown argument: --force/);
  });
});
