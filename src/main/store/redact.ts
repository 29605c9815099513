export const REDACTED = '[redacted]';
/** shorter "secrets" would redact ordinary words */
const MIN_KNOWN_SECRET_LENGTH = 6;
/** keys local servers accept as anything (their docs say to type these): blanking them would mangle model names */
const PLACEHOLDER_KEYS = new Set(['ollama', 'lm-studio', 'lmstudio', 'not-needed', 'no-key', 'sk-no-key-required']);

function isKnownSecret(value: string): boolean {
  return value.length >= MIN_KNOWN_SECRET_LENGTH && !PLACEHOLDER_KEYS.has(value.toLowerCase());
}

/** Credentials with a recognisable shape, in case one ended up in a message or a tool's arguments. */
const CREDENTIAL_PATTERNS: readonly RegExp[] = [
  /\bsk-[A-Za-z0-9_-]{16,}/g, // OpenAI, Anthropic, DeepSeek, OpenRouter keys
  /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/gi,
  /\bgh[pousr]_[A-Za-z0-9]{30,}/g, // GitHub tokens
  /\bgithub_pat_[A-Za-z0-9_]{40,}/g, // GitHub fine-grained tokens
  /\bAKIA[0-9A-Z]{16}\b/g, // AWS access key ids
  /\bAIza[0-9A-Za-z_-]{35}\b/g, // Google API keys
  /\bxox[abprs]-[A-Za-z0-9-]{10,}/g, // Slack tokens
  /\bhf_[A-Za-z0-9]{30,}/g, // Hugging Face tokens
];

/** Every credential shape above starts with one of these: text without any cannot hold one (most text, checked once). */
const CREDENTIAL_PREFIX = /sk-|bearer|gh[pousr]_|github_pat_|AKIA|AIza|xox[abprs]-|hf_/i;

/** a tail that could begin one of the credential shapes above, cut off by the end of a streamed chunk */
const CREDENTIAL_START_AT_END =
  /(?:\b(?:sk-|gh[pousr]_|github_pat_|AKIA|AIza|xox[abprs]-|hf_)|\bBearer\s+)[A-Za-z0-9._~+/=-]*$/i;

/** Variable and header names that say they carry a credential (OPENAI_API_KEY, GITHUB_TOKEN, Authorization...). */
export const CREDENTIAL_NAME = /authorization|token|secret|passw(or)?d|api[-_]?key|credential|cookie/i;

/** Replaces known secret values (e.g. the configured API keys) and credential-shaped strings. */
export function redactText(text: string, knownSecrets: Iterable<string> = []): string {
  let redacted = text;
  for (const secret of knownSecrets) {
    if (isKnownSecret(secret)) redacted = redacted.replaceAll(secret, REDACTED);
  }
  if (!CREDENTIAL_PREFIX.test(redacted)) return redacted;
  for (const pattern of CREDENTIAL_PATTERNS) redacted = redacted.replace(pattern, REDACTED);
  return redacted;
}

/** `redactText` applied to every string inside a JSON-like value (keys included). */
export function redactDeep<T>(value: T, knownSecrets: Iterable<string> = []): T {
  const secrets = [...knownSecrets];
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return redactText(node, secrets);
    if (Array.isArray(node)) return node.map(walk);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(Object.entries(node).map(([key, child]) => [redactText(key, secrets), walk(child)]));
    }
    return node;
  };
  return walk(value) as T;
}

/** The values of this process's environment variables named like credentials (API keys, server tokens). */
export function environmentSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.entries(env)
    .filter(([name, value]) => CREDENTIAL_NAME.test(name) && value !== undefined && value !== '')
    .map(([, value]) => value as string);
}

/**
 * Every secret this process knows (the environment's, plus the settings' as they are read) and the
 * credential shapes: what passes through it can become an event, a row, a log line or CLI output.
 */
export class SecretRedactor {
  /** longest first: a secret that contains another is replaced whole, not left with a tail */
  private known: string[] = [];

  constructor() {
    this.remember(environmentSecrets());
  }

  /** Secrets only grow: a key replaced in the settings may still sit in an error being reported. */
  remember(secrets: Iterable<string>): void {
    const added = [...secrets].filter(isKnownSecret);
    if (added.every((secret) => this.known.includes(secret))) return;
    this.known = [...new Set([...this.known, ...added])].sort((a, b) => b.length - a.length);
  }

  /** The value itself when nothing in it needs redacting (most events: checked without copying), else a copy. */
  deep<T>(value: T): T {
    return this.holdsSecret(value) ? redactDeep(value, this.known) : value;
  }

  private holdsSecret(node: unknown): boolean {
    if (typeof node === 'string') {
      return CREDENTIAL_PREFIX.test(node) || this.known.some((secret) => node.includes(secret));
    }
    if (Array.isArray(node)) return node.some((child) => this.holdsSecret(child));
    if (node !== null && typeof node === 'object') {
      for (const key in node) {
        if (this.holdsSecret(key) || this.holdsSecret((node as Record<string, unknown>)[key])) return true;
      }
    }
    return false;
  }

  /**
   * How many characters at the end of `text` could be the first part of a secret that the next chunk of a
   * stream completes (0 when none): those are held back until the rest arrives.
   */
  unfinishedTailLength(text: string): number {
    let longest = CREDENTIAL_START_AT_END.exec(text)?.[0].length ?? 0;
    for (const secret of this.known) {
      for (let length = Math.min(secret.length - 1, text.length); length > longest; length--) {
        if (text.endsWith(secret.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    return longest;
  }
}
