import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Encrypts secrets at rest (see `openSecretBox`: a key in the OS keychain, else a key file). */
export interface SecretBox {
  /** names the scheme, so a value encrypted by one box is not fed to another */
  readonly kind: string;
  encrypt(plain: string): string;
  decrypt(cipher: string): string;
  /** boxes of earlier schemes whose values this one still reads (they are re-encrypted with this one on save) */
  readonly older?: readonly SecretBox[];
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
    fs.writeFileSync(file, randomSecretKey().toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
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

export function randomSecretKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

/** AES-256-GCM with a 32-byte key; `keyPlace` names where the key lives, for the error a wrong key gives. */
export class AesGcmSecretBox implements SecretBox {
  constructor(
    readonly kind: string,
    private readonly key: Buffer,
    private readonly keyPlace: string,
    readonly older: readonly SecretBox[] = [],
  ) {
    if (key.length !== KEY_BYTES) throw new SecretKeyFileError(`${keyPlace} does not hold a ${KEY_BYTES}-byte key`);
  }

  encrypt(plain: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(CIPHER, this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return FORMAT_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  decrypt(encrypted: string): string {
    if (!encrypted.startsWith(FORMAT_PREFIX)) {
      throw new Error(`Cannot decrypt: not a value encrypted by the ${this.kind} secret box`);
    }
    const packed = Buffer.from(encrypted.slice(FORMAT_PREFIX.length), 'base64');
    if (packed.length < IV_BYTES + TAG_BYTES) throw new Error('Cannot decrypt: the encrypted value is truncated');
    const decipher = createDecipheriv(CIPHER, this.key, packed.subarray(0, IV_BYTES));
    decipher.setAuthTag(packed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(packed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new Error(`Cannot decrypt: the value was encrypted with another key than ${this.keyPlace}, or altered`);
    }
  }
}

/** AES-256-GCM with a random key kept in `<dataDir>/secret.key` (mode 0600): where no OS keychain is usable. */
export class FileKeySecretBox extends AesGcmSecretBox {
  constructor(
    readonly keyFile: string,
    older: readonly SecretBox[] = [],
  ) {
    if (!fs.existsSync(keyFile)) createKeyFile(keyFile);
    super('file-key', readKeyFile(keyFile), keyFile, older);
  }

  static inDataDir(dataDir: string): FileKeySecretBox {
    return new FileKeySecretBox(path.join(dataDir, SECRET_KEY_FILE_NAME));
  }
}
