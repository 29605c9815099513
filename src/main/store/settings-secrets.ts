import type { SecretBox } from './secrets.js';
import type { SessionStore } from './store-api.js';

/** The key the app settings are stored under. */
export const SETTINGS_KEY = 'settings';
export const SECRET_MASK = '••••';
/** a secret shorter than this is masked entirely: its last 4 characters would give most of it away */
const MIN_LENGTH_TO_SHOW_TAIL = 12;
const SHOWN_TAIL = 4;
/** stored form: `enc:<box kind>:<cipher text>` */
const ENCRYPTED_PREFIX = 'enc:';

/** Fields whose value is a secret wherever they appear (llms.*.apiKey, browser.proxy.password, mcp.servers.*.oauth.clientSecret...). */
const SECRET_FIELD_NAMES = new Set(['apiKey', 'password', 'clientSecret']);
/** MCP server headers and env variables whose name says they carry a credential */
const CREDENTIAL_NAME = /authorization|token|secret|passw(or)?d|api[-_]?key|credential|cookie/i;

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

/** Values stored before encryption existed (plain text) are returned as they are; the next save encrypts them. */
export function decryptSettingsSecrets<T>(settings: T, box: SecretBox): T {
  return mapSecrets(settings, (secret, keys) => {
    if (!isEncryptedSecret(secret)) return secret;
    const rest = secret.slice(ENCRYPTED_PREFIX.length);
    const kind = rest.slice(0, rest.indexOf(':'));
    if (kind !== box.kind) {
      throw new Error(
        `The setting ${keys.join('.')} was encrypted with "${kind}" and cannot be read with "${box.kind}"; enter it again`,
      );
    }
    return box.decrypt(rest.slice(kind.length + 1));
  });
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
