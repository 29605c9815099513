import { safeStorage } from 'electron';
import type { SecretBox } from '../store/secrets.js';

/**
 * Secrets the desktop app encrypted with Electron's safeStorage before the shared store (`openSecretBox`) existed:
 * read only, so they can move to the store the CLI reads too.
 */
export class SafeStorageSecretBox implements SecretBox {
  readonly kind = 'safe-storage';

  /** Linux without a keyring only has a hard-coded key; the key file is safer there. */
  static isUsable(): boolean {
    if (!safeStorage.isEncryptionAvailable()) return false;
    return process.platform !== 'linux' || safeStorage.getSelectedStorageBackend() !== 'basic_text';
  }

  encrypt(plain: string): string {
    return safeStorage.encryptString(plain).toString('base64');
  }

  decrypt(cipher: string): string {
    return safeStorage.decryptString(Buffer.from(cipher, 'base64'));
  }
}
