export const REDACTED = '[redacted]';
/** shorter "secrets" would redact ordinary words */
const MIN_KNOWN_SECRET_LENGTH = 6;

/** Credentials with a recognisable shape, in case one ended up in a message or a tool's arguments. */
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic, DeepSeek, OpenRouter keys
  /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
];

/** Replaces known secret values (e.g. the configured API keys) and credential-shaped strings. */
export function redactText(text: string, knownSecrets: readonly string[] = []): string {
  let redacted = text;
  for (const secret of knownSecrets) {
    if (secret.length >= MIN_KNOWN_SECRET_LENGTH) redacted = redacted.replaceAll(secret, REDACTED);
  }
  for (const pattern of CREDENTIAL_PATTERNS) redacted = redacted.replace(pattern, REDACTED);
  return redacted;
}

/** `redactText` applied to every string inside a JSON-like value (keys included). */
export function redactDeep<T>(value: T, knownSecrets: readonly string[] = []): T {
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, knownSecrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, child]) => [redactText(key, knownSecrets), walk(child)]),
      );
    }
    return node;
  };
  return walk(value) as T;
}
