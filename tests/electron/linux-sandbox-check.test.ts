import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error a plain script of npm start, without types
import { advice, sandboxBlocker } from '../../scripts/linux-sandbox-check.mjs';

const folder = mkdtempSync(join(tmpdir(), 'manus-sandbox-check-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** a /proc value and an Electron folder with a chrome-sandbox that is not setuid root (a user's npm install) */
function machine(restricted: '0' | '1') {
  const restriction = join(folder, `restrict-${restricted}`);
  writeFileSync(restriction, `${restricted}\n`);
  writeFileSync(join(folder, 'chrome-sandbox'), '');
  chmodSync(join(folder, 'chrome-sandbox'), 0o755);
  return { restriction, electronDir: folder };
}

describe.runIf(process.platform === 'linux')('npm start on Ubuntu 24.04 (AppArmor restricts user namespaces)', () => {
  it('finds the restriction with a chrome-sandbox that is not setuid root, and says how to fix it', () => {
    const blocker = sandboxBlocker(machine('1'));
    expect(blocker).toEqual({ helper: join(folder, 'chrome-sandbox'), electron: join(folder, 'electron') });
    const text = advice(blocker) as string;
    expect(text).toContain('apparmor_restrict_unprivileged_userns');
    expect(text).toContain(`profile manus-dev-electron "${join(folder, 'electron')}"`);
    expect(text).toContain(`sudo chmod 4755 "${join(folder, 'chrome-sandbox')}"`);
  });

  it('says nothing where user namespaces are allowed', () => {
    expect(sandboxBlocker(machine('0'))).toBeUndefined();
    expect(sandboxBlocker({ restriction: join(folder, 'absent'), electronDir: folder })).toBeUndefined();
  });
});
