import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileKeySecretBox, SECRET_KEY_FILE_NAME, SecretKeyFileError } from '../../src/main/store/secrets.js';
import { tempDir } from './store-fixtures.js';

const posix = process.platform !== 'win32';

describe('FileKeySecretBox', () => {
  it('round-trips text, with a fresh IV each time', () => {
    const box = FileKeySecretBox.inDataDir(tempDir());
    const plain = 'sk-live-ünïcode-🔑';
    const first = box.encrypt(plain);
    const second = box.encrypt(plain);
    expect(first).not.toBe(second);
    expect(first).not.toContain(plain);
    expect(box.decrypt(first)).toBe(plain);
    expect(box.decrypt(second)).toBe(plain);
    expect(box.decrypt(box.encrypt(''))).toBe('');
    expect(box.kind).toBe('file-key');
  });

  it('creates the key file once, mode 0600, and reuses it', () => {
    const dataDir = tempDir();
    const box = FileKeySecretBox.inDataDir(dataDir);
    const keyFile = path.join(dataDir, SECRET_KEY_FILE_NAME);
    if (posix) expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = fs.readFileSync(keyFile, 'utf8');
    const again = FileKeySecretBox.inDataDir(dataDir);
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(key);
    expect(again.decrypt(box.encrypt('shared'))).toBe('shared');
  });

  it.runIf(posix)('refuses a key file readable by group or others, naming the fix', () => {
    const dataDir = tempDir();
    FileKeySecretBox.inDataDir(dataDir);
    const keyFile = path.join(dataDir, SECRET_KEY_FILE_NAME);
    fs.chmodSync(keyFile, 0o644);
    expect(() => FileKeySecretBox.inDataDir(dataDir)).toThrow(SecretKeyFileError);
    expect(() => FileKeySecretBox.inDataDir(dataDir)).toThrow(/readable by other users \(mode 644\).*chmod 600/);
    fs.chmodSync(keyFile, 0o640);
    expect(() => FileKeySecretBox.inDataDir(dataDir)).toThrow(/mode 640/);
  });

  it('refuses a damaged key file', () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, SECRET_KEY_FILE_NAME), 'c2hvcnQ=\n', { mode: 0o600 });
    expect(() => FileKeySecretBox.inDataDir(dataDir)).toThrow(/does not hold a 32-byte key/);
  });

  it('detects another key and tampering instead of returning garbage', () => {
    const box = FileKeySecretBox.inDataDir(tempDir());
    const other = FileKeySecretBox.inDataDir(tempDir());
    const cipher = box.encrypt('secret');
    expect(() => other.decrypt(cipher)).toThrow(/another key .* or altered/);
    const bytes = Buffer.from(cipher.slice(3), 'base64');
    bytes[bytes.length - 1] ^= 1;
    expect(() => box.decrypt(`v1:${bytes.toString('base64')}`)).toThrow(/altered/);
    expect(() => box.decrypt('plain text')).toThrow(/not a value encrypted/);
    expect(() => box.decrypt('v1:AAAA')).toThrow(/truncated/);
  });
});
