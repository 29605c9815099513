import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts secrets at rest. The CLI uses a key file; the Electron shell supplies one backed by `safeStorage`. */
export interface SecretBox {
  /** names the scheme, so a value encrypted by one box is not fed to another */
  readonly kind: string;
  encrypt(plain: string): string;
  decrypt(cipher: string): string;
}

export const SECRET_KEY_FILE_NAME = 'secret.key';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const CIPHER = 'aes-256-gcm';
const FORMAT_PREFIX = 'v1:';

export class SecretKeyFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretKeyFileError';
  }
}

function createKeyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  try {
    // 'wx': two processes starting at once must not each write their own key
    fs.writeFileSync(file, randomBytes(KEY_BYTES).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

function readKeyFile(file: string): Buffer {
  if (process.platform !== 'win32') {
    const mode = fs.statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new SecretKeyFileError(
        `The secret key file ${file} is readable by other users (mode ${mode.toString(8)}); ` +
          `run: chmod 600 "${file}"`,
      );
    }
  }
  const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== KEY_BYTES) {
    throw new SecretKeyFileError(`The secret key file ${file} does not hold a ${KEY_BYTES}-byte key; it is damaged`);
  }
  return key;
}

/** AES-256-GCM with a random key kept in `<dataDir>/secret.key` (mode 0600). */
export class FileKeySecretBox implements SecretBox {
  readonly kind = 'file-key';
  private readonly key: Buffer;

  constructor(readonly keyFile: string) {
    if (!fs.existsSync(keyFile)) createKeyFile(keyFile);
    this.key = readKeyFile(keyFile);
  }

  static inDataDir(dataDir: string): FileKeySecretBox {
    return new FileKeySecretBox(path.join(dataDir, SECRET_KEY_FILE_NAME));
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return FORMAT_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  decrypt(encrypted: string): string {
    if (!encrypted.startsWith(FORMAT_PREFIX)) {
      throw new Error('Cannot decrypt: not a value encrypted by the file-key secret box');
    }
    const packed = Buffer.from(encrypted.slice(FORMAT_PREFIX.length), 'base64');
    if (packed.length < IV_BYTES + TAG_BYTES) throw new Error('Cannot decrypt: the encrypted value is truncated');
    const decipher = createDecipheriv(CIPHER, this.key, packed.subarray(0, IV_BYTES));
    decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`Cannot decrypt: the value was encrypted with another key than ${this.keyFile}, or altered`);
    }
  }
}
