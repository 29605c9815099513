export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  constructor(
    readonly status: number,
    url: string,
  ) {
    super(`HTTP ${status} from ${new URL(url).host}`);
  }
}

export interface FetchTextOptions {
  signal: AbortSignal;
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST';
  body?: string;
  /** how the request goes out: a result page's under the egress policy (net/guarded-fetch.ts); a configured engine's plainly */
  fetch?: (url: string, init: RequestInit) => Promise<Response>;
}

export interface FetchedText {
  url: string;
  status: number;
  contentType: string;
  text: string;
  /** true when the body was longer than maxBytes and was cut */
  truncated: boolean;
}

/** GET/POST a URL and read at most `maxBytes` of its body as text; non-2xx statuses throw HttpStatusError. */
export async function fetchText(url: string, options: FetchTextOptions): Promise<FetchedText> {
  const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.timeoutMs)]);
  const response = await (options.fetch ?? fetch)(url, {
    method: options.method ?? 'GET',
    headers: options.headers,
    body: options.body,
    signal,
    redirect: 'follow',
  });
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw new HttpStatusError(response.status, url);
  }
  const { bytes, truncated } = await readLimited(response, options.maxBytes);
  return {
    url: response.url || url,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: new TextDecoder(charsetOf(response.headers.get('content-type'))).decode(bytes),
    truncated,
  };
}

/** fetchText, parsed as JSON; garbage is reported as such. */
export async function fetchJson(url: string, options: FetchTextOptions): Promise<unknown> {
  const fetched = await fetchText(url, options);
  try {
    return JSON.parse(fetched.text);
  } catch {
    throw new Error(`${new URL(url).host} did not answer with JSON (got: ${fetched.text.slice(0, 80)}…)`);
  }
}

async function readLimited(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; truncated: boolean }> {
  if (!response.body) return { bytes: new Uint8Array(), truncated: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size >= maxBytes) {
      truncated = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const bytes = new Uint8Array(Math.min(size, maxBytes));
  let offset = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, bytes.byteLength - offset);
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return { bytes, truncated };
}

function charsetOf(contentType: string | null): string {
  const charset = /charset=([^;]+)/i
    .exec(contentType ?? '')?.[1]
    ?.trim()
    .replace(/"/g, '');
  if (!charset) return 'utf-8';
  try {
    new TextDecoder(charset);
    return charset;
  } catch {
    return 'utf-8';
  }
}
