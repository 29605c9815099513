import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai';
import type { MessageParams } from '../../shared/events.js';
import { redactText } from '../store/redact.js';

export const LLM_ERROR_CODES = [
  'no_api_key',
  'invalid_config',
  'unauthorized',
  'forbidden',
  'not_found',
  'bad_request',
  'context_length',
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'cancelled',
  'empty_reply',
  'no_tool_support',
  'reply_too_large',
] as const;
export type LlmErrorCode = (typeof LLM_ERROR_CODES)[number];

const HINTS: Record<LlmErrorCode, string> = {
  no_api_key: 'Set the API key of this LLM in the settings (or MANUS_LLM_API_KEY / OPENAI_API_KEY for the CLI).',
  invalid_config: 'Fix the LLM settings (provider, base URL, model).',
  unauthorized: "The provider rejected the API key: check it in the provider's settings.",
  forbidden: 'The key has no access to this model or endpoint: check the account, project or region.',
  not_found: 'Check the model name and the base URL (it usually ends with /v1).',
  bad_request: 'The provider refused the request: check the model settings (max tokens, model name).',
  context_length: 'The conversation does not fit the model: raise contextWindow correctly or start a new session.',
  rate_limited: 'The provider is rate limiting: wait a minute, lower the pace, or raise the limits of your plan.',
  server_error: 'The provider had a server error: try again later or use another model.',
  network: 'Could not reach the endpoint: check the base URL, that the server runs, and the network.',
  timeout: 'The model did not answer in time: raise requestTimeoutMs or check the server.',
  cancelled: 'The request was cancelled.',
  empty_reply: 'The model answered with nothing: try again or use another model.',
  no_tool_support: 'This model does not support tool calling: pick a model that does, or set toolCalling to false.',
  reply_too_large:
    'The model kept sending past the reply size limit: ask for a shorter answer, or raise maxReplyChars of this LLM.',
};

/** Codes worth another attempt: the same request may succeed later. */
export const RETRYABLE_CODES: ReadonlySet<LlmErrorCode> = new Set([
  'rate_limited',
  'server_error',
  'network',
  'timeout',
  'empty_reply',
]);

export interface LlmErrorDetails {
  status?: number;
  /** milliseconds the server asked to wait before retrying */
  retryAfterMs?: number;
  /** attempts made before giving up */
  attempts?: number;
  cause?: unknown;
  hint?: string;
  /** overrides the code's default (e.g. an empty reply that another attempt cannot fix) */
  retryable?: boolean;
  /** what the error ran into, when the UI says it in its own words (see LlmErrorReason) */
  reason?: LlmErrorReason;
}

/** What a failed connection ran into: the person is told the server refused, or the name did not resolve. */
export type NetworkReason = 'refused' | 'dns' | 'reset' | 'other';
/** a network error's reason; for `context_length` the task alone is too large; for `empty_reply` it ran out of tokens */
export type LlmErrorReason = NetworkReason | 'task_too_large' | 'out_of_tokens';

const NETWORK_REASONS: Record<string, NetworkReason> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ECONNRESET: 'reset',
};
/** how deep to look through `cause` chains (the SDK wraps undici, which wraps the socket's error) */
const MAX_CAUSE_DEPTH = 5;

function networkReason(error: unknown): NetworkReason {
  let current: unknown = error;
  for (let depth = 0; current && depth < MAX_CAUSE_DEPTH; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_REASONS[code]) return NETWORK_REASONS[code];
    current = (current as { cause?: unknown }).cause;
  }
  return 'other';
}

/** Every failure of the LLM layer, with a code to branch on and a one-line hint for the user. */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: LlmErrorCode;
  readonly hint: string;
  readonly status?: number;
  readonly retryAfterMs?: number;
  readonly attempts?: number;
  readonly reason?: LlmErrorReason;
  /** when it failed: a wait the provider asked for counts from here */
  readonly failedAt = Date.now();
  private readonly retryableOverride?: boolean;

  constructor(code: LlmErrorCode, message: string, details: LlmErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.code = code;
    this.hint = details.hint ?? HINTS[code];
    this.status = details.status;
    this.retryAfterMs = details.retryAfterMs;
    this.attempts = details.attempts;
    this.reason = details.reason;
    this.retryableOverride = details.retryable;
  }

  /** What the renderer's translation of `code` fills in. */
  get params(): MessageParams {
    return {
      ...(this.status !== undefined ? { status: this.status } : {}),
      ...(this.retryAfterMs !== undefined
        ? { retryAfterSeconds: Math.ceil(this.retryAfterMs / 1000), retryAt: this.failedAt + this.retryAfterMs }
        : {}),
      ...(this.attempts !== undefined ? { attempts: this.attempts } : {}),
      ...(this.reason ? { reason: this.reason } : {}),
    };
  }

  get retryable(): boolean {
    return this.retryableOverride ?? RETRYABLE_CODES.has(this.code);
  }

  /** A copy saying how many attempts were made. */
  afterAttempts(attempts: number): LlmError {
    const prefix = attempts > 1 ? `LLM request failed after ${attempts} attempts: ` : 'LLM request failed: ';
    return new LlmError(this.code, prefix + this.message, {
      status: this.status,
      retryAfterMs: this.retryAfterMs,
      attempts,
      cause: this.cause,
      hint: this.hint,
      retryable: this.retryableOverride,
      reason: this.reason,
    });
  }
}

export function isLlmError(error: unknown, code?: LlmErrorCode): error is LlmError {
  return error instanceof LlmError && (code === undefined || error.code === code);
}

const CONTEXT_LENGTH_PATTERN =
  /context[_ ]length|maximum context|context window|too many tokens|prompt is too long|reduce the length|input is too long/i;

export function isContextLengthMessage(text: string): boolean {
  return CONTEXT_LENGTH_PATTERN.test(text);
}

/** Milliseconds from Retry-After (seconds or an HTTP date) or retry-after-ms; undefined when absent or unreadable. */
export function parseRetryAfter(headers: Headers | undefined, now = Date.now()): number | undefined {
  const millis = headers?.get('retry-after-ms');
  if (millis && Number.isFinite(Number(millis))) return Math.max(0, Number(millis));
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The most of a non-JSON error body kept (a proxy's HTML error page is mostly markup). */
const MAX_ERROR_TEXT = 500;

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The `{ message, code, type }` an error body means, from the shapes providers send. */
function errorOf(body: unknown): JsonRecord | undefined {
  if (typeof body === 'string') return body.trim() ? { message: body.trim() } : undefined;
  if (Array.isArray(body)) {
    // Gemini's OpenAI endpoint: [{"error": {...}}]; several entries are joined into one message
    const errors = (body as unknown[]).map(errorOf).filter((error): error is JsonRecord => error !== undefined);
    if (errors.length <= 1) return errors[0];
    return { ...errors[0], message: errors.map((error) => String(error.message)).join('; ') };
  }
  if (!isRecord(body)) return undefined;
  if (isRecord(body.error) && typeof body.error.message === 'string') return body.error;
  if (body.error !== undefined) return errorOf(body.error);
  if (typeof body.message === 'string') return { ...body, message: body.message };
  // FastAPI (vLLM, SGLang): {"detail": "..."} or {"detail": [{"loc": [...], "msg": "..."}]}
  if (typeof body.detail === 'string') return { message: body.detail };
  if (Array.isArray(body.detail)) {
    return {
      message: body.detail
        .map((item) => (isRecord(item) ? String(item.msg ?? JSON.stringify(item)) : String(item)))
        .join('; '),
    };
  }
  return { message: JSON.stringify(body).slice(0, MAX_ERROR_TEXT) };
}

/** Plain-text and HTML bodies as one short line. */
function plainErrorText(text: string): string {
  const visible = /<\/?[a-z][^>]*>/i.test(text)
    ? text.replace(/<(script|style)[\s\S]*?<\/\1>/gi, '').replace(/<[^>]+>/g, ' ')
    : text;
  const line = visible.replace(/\s+/g, ' ').trim();
  return line.length > MAX_ERROR_TEXT ? `${line.slice(0, MAX_ERROR_TEXT)}…` : line;
}

/**
 * The body and message to build the SDK's status error from, so that error bodies the SDK cannot read (a JSON array,
 * `{"error": "text"}`, `{"detail": ...}`, plain text, HTML) are shown instead of "status code (no body)".
 */
export function readableStatusError(
  body: unknown,
  text: string | undefined,
): { body: JsonRecord | undefined; text: string | undefined } {
  if (body !== undefined && body !== null) {
    const error = errorOf(body);
    return { body: error ? { error } : undefined, text: error ? undefined : JSON.stringify(body) };
  }
  const plain = text === undefined ? undefined : plainErrorText(text);
  return { body: undefined, text: plain || undefined };
}

function codeForStatus(status: number, text: string): LlmErrorCode {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not_found';
  if (status === 408) return 'timeout';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  if (isContextLengthMessage(text)) return 'context_length';
  return 'bad_request';
}

function describeStatus(code: LlmErrorCode, status: number): string {
  switch (code) {
    case 'rate_limited':
      return `rate limited by the provider (HTTP ${status})`;
    case 'server_error':
      return `server error (HTTP ${status})`;
    case 'unauthorized':
      return `API key refused (HTTP ${status})`;
    case 'forbidden':
      return `access denied (HTTP ${status})`;
    case 'not_found':
      return `model or endpoint not found (HTTP ${status})`;
    case 'context_length':
      return `conversation too long for the model (HTTP ${status})`;
    default:
      return `request refused (HTTP ${status})`;
  }
}

/**
 * Turn whatever the SDK or the network threw into an LlmError (already-LlmErrors pass through).
 * Servers' text is cleared of `apiKey` and key-shaped strings: several echo the key in their 401 message.
 */
export function toLlmError(error: unknown, model: string, apiKey?: string): LlmError {
  if (error instanceof LlmError) return error;
  const secrets = apiKey ? [apiKey] : [];
  if (error instanceof APIUserAbortError) return new LlmError('cancelled', 'request cancelled', { cause: error });
  if (error instanceof APIConnectionTimeoutError) {
    return new LlmError('timeout', `model ${model} did not answer in time`, { cause: error });
  }
  if (error instanceof APIConnectionError) {
    const reason = error.cause instanceof Error ? error.cause.message : error.message;
    return new LlmError('network', `could not reach the endpoint (${redactText(reason, secrets)})`, {
      cause: error,
      reason: networkReason(error),
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const serverText = redactText(error.message.replace(/^\d{3}\s*/, ''), secrets);
    const code = codeForStatus(error.status, `${error.code ?? ''} ${serverText}`);
    return new LlmError(code, `${describeStatus(code, error.status)} for model ${model}: ${serverText}`, {
      status: error.status,
      retryAfterMs: parseRetryAfter(error.headers),
      cause: error,
    });
  }
  if (error instanceof APIError) {
    const reason = redactText(error.message, secrets);
    return new LlmError('network', `the connection failed mid-reply (${reason})`, { cause: error });
  }
  // undici and the SDK's stream reader throw plain errors when a socket dies mid-reply
  const message = redactText(error instanceof Error ? error.message : String(error), secrets);
  return new LlmError('network', `the connection failed mid-reply (${message})`, { cause: error });
}
