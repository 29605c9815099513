import { CREDENTIAL_NAME } from './redact.js';
import type { SecretBox } from './secrets.js';
import type { SessionStore } from './store-api.js';
import { SECRET_MASK } from '../../shared/settings/secret-mask.js';

/** The key the app settings are stored under. */
export const SETTINGS_KEY = 'settings';
/** a secret shorter than this is masked entirely: its last 4 characters would give most of it away */
const MIN_LENGTH_TO_SHOW_TAIL = 12;
const SHOWN_TAIL = 4;
/** stored form: `enc:<box kind>:<cipher text>` */
const ENCRYPTED_PREFIX = 'enc:';

/** Fields whose value is a secret wherever they appear (llms.*.apiKey, browser.proxy.password, mcp.servers.*.oauth.clientSecret...). */
const SECRET_FIELD_NAMES = new Set(['apiKey', 'password', 'clientSecret']);

function isSecretPath(keys: readonly string[]): boolean {
  const name = keys[keys.length - 1];
  if (name === undefined) return false;
  if (SECRET_FIELD_NAMES.has(name)) return true;
  const [section, servers, , table] = keys;
  return (
    section === 'mcp' &&
    servers === 'servers' &&
    keys.length === 5 &&
    (table === 'headers' || table === 'env') &&
    CREDENTIAL_NAME.test(name)
  );
}

/** A copy of `value` with `transform` applied to every non-empty secret string. */
function mapSecrets<T>(value: T, transform: (secret: string, keys: readonly string[]) => string): T {
  const walk = (node: unknown, keys: string[]): unknown => {
    if (typeof node === 'string') return node !== '' && isSecretPath(keys) ? transform(node, keys) : node;
    if (Array.isArray(node)) return node.map((item, index) => walk(item, [...keys, String(index)]));
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [key, walk(child, [...keys, key])]));
    }
    return node;
  };
  return walk(value, []) as T;
}

export function isEncryptedSecret(value: string): boolean {
  return value.startsWith(ENCRYPTED_PREFIX);
}

export function encryptSettingsSecrets<T>(settings: T, box: SecretBox): T {
  return mapSecrets(settings, (secret) =>
    isEncryptedSecret(secret) ? secret : `${ENCRYPTED_PREFIX}${box.kind}:${box.encrypt(secret)}`,
  );
}

/** A secret that could not be decrypted: where it is and why. */
export interface UnreadableSecret {
  path: string;
  reason: string;
}

export interface OpenedSecrets<T> {
  /** the settings with their secrets decrypted; an unreadable one is left out */
  settings: T;
  unreadable: UnreadableSecret[];
  /** some values were encrypted by an older box: saving again moves them to `box` */
  usedOlder: boolean;
}

/** The boxes able to read a value of `kind`: this one, then the older schemes it still reads. */
function boxForKind(box: SecretBox, kind: string): SecretBox | undefined {
  return [box, ...(box.older ?? [])].find((candidate) => candidate.kind === kind);
}

/**
 * Decrypts every secret it can; one that cannot be (a lost key, another machine's keychain) is reported and
 * left out rather than failing the whole settings. Values stored before encryption existed come back as they are.
 */
export function openSettingsSecrets<T>(settings: T, box: SecretBox): OpenedSecrets<T> {
  const unreadable: UnreadableSecret[] = [];
  let usedOlder = false;
  const opened = mapSecrets(settings, (secret, keys) => {
    if (!isEncryptedSecret(secret)) return secret;
    const rest = secret.slice(ENCRYPTED_PREFIX.length);
    const kind = rest.slice(0, rest.indexOf(':'));
    const reader = boxForKind(box, kind);
    try {
      if (!reader)
        throw new Error(`it was encrypted with "${kind}", which cannot be read here (this uses "${box.kind}")`);
      const plain = reader.decrypt(rest.slice(kind.length + 1));
      if (reader !== box) usedOlder = true;
      return plain;
    } catch (error) {
      unreadable.push({ path: keys.join('.'), reason: (error as Error).message });
      return UNREADABLE;
    }
  });
  return { settings: dropUnreadable(opened), unreadable, usedOlder };
}

/** marks a secret to leave out; not a string a person could type */
const UNREADABLE = '\u0000unreadable\u0000';

function dropUnreadable<T>(value: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node)
          .filter(([, child]) => child !== UNREADABLE)
          .map(([key, child]) => [key, walk(child)]),
      );
    }
    return node;
  };
  return walk(value) as T;
}

/** Every secret decrypted, or an error naming the first one that cannot be. */
export function decryptSettingsSecrets<T>(settings: T, box: SecretBox): T {
  const opened = openSettingsSecrets(settings, box);
  const [first] = opened.unreadable;
  if (first) {
    throw new Error(
      `The setting ${first.path} cannot be read: ${first.reason}; run \`manus config reset ${first.path}\` or enter it again`,
    );
  }
  return opened.settings;
}

export function maskSecret(secret: string): string {
  if (isEncryptedSecret(secret) || secret.length < MIN_LENGTH_TO_SHOW_TAIL) return SECRET_MASK;
  return SECRET_MASK + secret.slice(-SHOWN_TAIL);
}

/** For anything shown to a renderer: every secret becomes "••••" plus at most its last 4 characters. */
export function maskSecrets<T>(settings: T): T {
  return mapSecrets(settings, maskSecret);
}

/** Settings coming back from a renderer keep the stored secret wherever the masked form was left unchanged. */
export function restoreMaskedSecrets<T>(incoming: T, current: unknown): T {
  return mapSecrets(incoming, (secret, keys) => {
    let stored: unknown = current;
    for (const key of keys) stored = (stored as Record<string, unknown> | undefined)?.[key];
    return typeof stored === 'string' && secret === maskSecret(stored) ? stored : secret;
  });
}

/** Every secret value in (decrypted) settings, e.g. to redact them from an export. */
export function collectSecrets(settings: unknown): string[] {
  const secrets: string[] = [];
  mapSecrets(settings, (secret) => {
    if (!isEncryptedSecret(secret)) secrets.push(secret);
    return secret;
  });
  return secrets;
}

export function saveSettings(store: SessionStore, box: SecretBox, settings: unknown): void {
  store.setSetting(SETTINGS_KEY, encryptSettingsSecrets(settings, box));
}

export function loadSettings(store: SessionStore, box: SecretBox): unknown {
  const stored = store.getSetting(SETTINGS_KEY);
  return stored === undefined ? undefined : decryptSettingsSecrets(stored, box);
}
