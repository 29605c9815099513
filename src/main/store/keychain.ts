import { Entry } from '@napi-rs/keyring';

/** The OS credential store: macOS Keychain, Windows Credential Manager, the Secret Service (GNOME Keyring, KWallet). */
export interface Keychain {
  /** undefined when there is no such entry (some platforms also answer so when they have no store at all) */
  get(service: string, account: string): string | undefined;
  /** throws when the platform has no usable store (e.g. Linux without a Secret Service) */
  set(service: string, account: string, value: string): void;
}

/**
 * On Linux the Secret Service is reached over the D-Bus session bus; without one, the binding falls back to the
 * kernel key ring, which forgets everything at logout: a key kept there would be lost with every value it sealed.
 */
function hasPersistentStore(env: NodeJS.ProcessEnv): boolean {
  return process.platform !== 'linux' || Boolean(env.DBUS_SESSION_BUS_ADDRESS);
}

class KeychainUnavailableError extends Error {
  constructor() {
    super('No OS keychain: on Linux, the Secret Service needs a D-Bus session (DBUS_SESSION_BUS_ADDRESS)');
    this.name = 'KeychainUnavailableError';
  }
}

/** The real one, through @napi-rs/keyring. */
export const osKeychain: Keychain = {
  get: (service, account) =>
    hasPersistentStore(process.env) ? (new Entry(service, account).getPassword() ?? undefined) : undefined,
  set: (service, account, value) => {
    if (!hasPersistentStore(process.env)) throw new KeychainUnavailableError();
    new Entry(service, account).setPassword(value);
  },
};
