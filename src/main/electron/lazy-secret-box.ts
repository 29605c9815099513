import type { SecretBox } from '../store/secrets.js';

/**
 * A secret box opened the first time a secret is read or written, not at start: opening it may read the OS keychain,
 * whose prompt (macOS "wants to use your confidential information", a locked Linux keyring) must come with the window
 * behind it.
 */
export class LazySecretBox implements SecretBox {
  private opened: SecretBox | undefined;

  constructor(private readonly open: () => SecretBox) {}

  private box(): SecretBox {
    this.opened ??= this.open();
    return this.opened;
  }

  get kind(): string {
    return this.box().kind;
  }

  get older(): readonly SecretBox[] | undefined {
    return this.box().older;
  }

  encrypt(plain: string): string {
    return this.box().encrypt(plain);
  }

  decrypt(cipher: string): string {
    return this.box().decrypt(cipher);
  }
}
