import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownHostVerifier } from '../../src/main/sandbox/ssh-known-hosts.js';

const KEY_A = Buffer.from('host key A');
const KEY_B = Buffer.from('host key B');

function knownHosts(lines: string[]): string {
  const file = join(mkdtempSync(join(tmpdir(), 'manus-known-hosts-')), 'known_hosts');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('known_hosts check for SSH engines', () => {
  it('accepts the recorded key for the host, on port 22 by name and on another port as [host]:port', () => {
    const file = knownHosts([
      '# a comment',
      `big.example ssh-ed25519 ${KEY_A.toString('base64')}`,
      `[big.example]:2222 ssh-ed25519 ${KEY_B.toString('base64')}`,
    ]);
    expect(knownHostVerifier('big.example', 22, [file])(KEY_A)).toBe(true);
    expect(knownHostVerifier('big.example', 22, [file])(KEY_B)).toBe(false);
    expect(knownHostVerifier('big.example', 2222, [file])(KEY_B)).toBe(true);
    expect(knownHostVerifier('big.example', 2222, [file])(KEY_A)).toBe(false);
    expect(knownHostVerifier('other.example', 22, [file])(KEY_A)).toBe(false);
  });

  it('follows wildcards and negations, and a @revoked key never passes', () => {
    const file = knownHosts([
      `*.example,!evil.example ssh-ed25519 ${KEY_A.toString('base64')}`,
      `@revoked * ssh-ed25519 ${KEY_B.toString('base64')}`,
      `*.example ssh-ed25519 ${KEY_B.toString('base64')}`,
    ]);
    expect(knownHostVerifier('big.example', 22, [file])(KEY_A)).toBe(true);
    expect(knownHostVerifier('evil.example', 22, [file])(KEY_A)).toBe(false);
    expect(knownHostVerifier('big.example', 22, [file])(KEY_B)).toBe(false);
  });

  it('no known_hosts file at all: nothing is trusted', () => {
    expect(knownHostVerifier('big.example', 22, ['/nonexistent/known_hosts'])(KEY_A)).toBe(false);
  });
});
