import { createRequire } from 'node:module';
import type { Entry as KeyringEntry } from '@napi-rs/keyring';

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
    super(
      'No OS keychain: on Linux, the Secret Service needs a D-Bus session (DBUS_SESSION_BUS_ADDRESS); ' +
        'or the keychain binding (@napi-rs/keyring) has no native package for this CPU',
    );
    this.name = 'KeychainUnavailableError';
  }
}

const requireNative = createRequire(import.meta.url);
let binding: { Entry: typeof KeyringEntry } | null | undefined;

/**
 * @napi-rs/keyring, loaded when the keychain is first used: npm installs only the native package of the CPU it ran
 * on, so a build made for the other one has none, and must start with the key file instead of failing at load.
 */
function keyring(): { Entry: typeof KeyringEntry } | null {
  if (binding === undefined) {
    try {
      binding = requireNative('@napi-rs/keyring') as { Entry: typeof KeyringEntry };
    } catch {
      binding = null;
    }
  }
  return binding;
}

function entry(service: string, account: string): KeyringEntry | undefined {
  if (!hasPersistentStore(process.env)) return undefined;
  const loaded = keyring();
  return loaded ? new loaded.Entry(service, account) : undefined;
}

/** The real one, through @napi-rs/keyring (none when its native package is missing: get answers undefined). */
export const osKeychain: Keychain = {
  get: (service, account) => entry(service, account)?.getPassword() ?? undefined,
  set: (service, account, value) => {
    const found = entry(service, account);
    if (!found) throw new KeychainUnavailableError();
    found.setPassword(value);
  },
};
