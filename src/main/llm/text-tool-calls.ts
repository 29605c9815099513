import { randomUUID } from 'node:crypto';
import type { ToolCall } from '../../shared/chat-message.js';
import type { ToolSpec } from './types.js';
import { jsonNestingDepth, MAX_TOOL_ARGUMENT_DEPTH } from './tool-arguments.js';

/** `<tool_call>…</tool_call>` as Hermes and Qwen templates write calls (the closing tag may be cut off at the end). */
const TOOL_CALL_TAG = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;
/** A fenced block with no language or json. */
const JSON_FENCE = /```(?:json)?[ \t]*\n?([\s\S]*?)```/g;

interface Span {
  start: number;
  end: number;
  body: string;
  /** written as a call on purpose (a tag): a call there needs no `arguments` */
  tagged: boolean;
}

/** Every balanced {...} span in the text, string-aware, outermost first. */
function jsonObjectSpans(text: string): Span[] {
  const spans: Span[] = [];
  for (let start = text.indexOf('{'); start !== -1;) {
    let depth = 0;
    let inString = false;
    let end = -1;
    for (let at = start; at < text.length; at++) {
      const char = text[at];
      if (inString) {
        if (char === '\\') at++;
        else if (char === '"') inString = false;
      } else if (char === '"') inString = true;
      else if (char === '{') depth++;
      else if (char === '}' && --depth === 0) {
        end = at + 1;
        break;
      }
    }
    if (end === -1) break;
    spans.push({ start, end, body: text.slice(start, end), tagged: false });
    start = text.indexOf('{', end);
  }
  return spans;
}

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One call as models write it: {"name", "arguments"|"parameters"} or OpenAI's {"function": {"name", "arguments"}}.
 * Only tools that exist count, and outside a tag the arguments must be there: `{"name": "bash"}` in prose is a mention.
 */
function callOf(value: unknown, toolNames: ReadonlySet<string>, tagged: boolean): ToolCall | undefined {
  if (!isRecord(value)) return undefined;
  const shape = isRecord(value.function) ? value.function : value;
  const name = shape.name;
  if (typeof name !== 'string' || !toolNames.has(name)) return undefined;
  const args = shape.arguments ?? shape.parameters;
  if (args === undefined && !tagged) return undefined;
  if (args !== undefined && !isRecord(args) && typeof args !== 'string') return undefined;
  return {
    id: `call_${randomUUID().replaceAll('-', '').slice(0, 16)}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
  };
}

/** The calls one JSON value holds: a call, a list of calls, or {"tool_calls": [...]}; all of them or none. */
function callsIn(value: unknown, toolNames: ReadonlySet<string>, tagged: boolean): ToolCall[] {
  const list = Array.isArray(value)
    ? value
    : isRecord(value) && Array.isArray(value.tool_calls)
      ? value.tool_calls
      : undefined;
  // a list the model wrote as calls is explicit enough to need no arguments for a tool without any
  const calls = list ? list.map((item) => callOf(item, toolNames, true)) : [callOf(value, toolNames, tagged)];
  if (calls.length === 0 || calls.some((call) => call === undefined)) return [];
  return calls as ToolCall[];
}

function parseJson(text: string): unknown {
  // too deep to handle safely after parsing: read as text, not as a call
  if (jsonNestingDepth(text) > MAX_TOOL_ARGUMENT_DEPTH) return undefined;
  try {
    return JSON.parse(text.trim());
  } catch {
    return undefined;
  }
}

export interface TextToolCalls {
  /** the reply without the calls */
  text: string;
  toolCalls: ToolCall[];
}

interface FoundCalls {
  calls: ToolCall[];
  /** where they were written, in order */
  spans: Span[];
}

function findTextToolCalls(reply: string, toolNames: ReadonlySet<string>): FoundCalls {
  if (!/[{[]/.test(reply)) return { calls: [], spans: [] };
  const candidates: Span[] = [];
  const free = (start: number, end: number) => !candidates.some((taken) => start < taken.end && end > taken.start);
  for (const tag of reply.matchAll(TOOL_CALL_TAG)) {
    candidates.push({ start: tag.index, end: tag.index + tag[0].length, body: tag[1], tagged: true });
  }
  for (const fence of reply.matchAll(JSON_FENCE)) {
    const end = fence.index + fence[0].length;
    if (free(fence.index, end)) candidates.push({ start: fence.index, end, body: fence[1], tagged: false });
  }
  for (const span of jsonObjectSpans(reply)) if (free(span.start, span.end)) candidates.push(span);
  const found = candidates
    .map((span) => ({ span, calls: callsIn(parseJson(span.body), toolNames, span.tagged) }))
    .filter((entry) => entry.calls.length > 0)
    .sort((a, b) => a.span.start - b.span.start);
  return { calls: found.flatMap((entry) => entry.calls), spans: found.map((entry) => entry.span) };
}

/** The text from `from` on, without the spans. */
function withoutSpans(text: string, spans: readonly Span[], from = 0): string {
  let kept = '';
  let at = from;
  for (const span of spans) {
    if (span.end <= at) continue;
    kept += text.slice(at, Math.max(at, span.start));
    at = Math.max(at, span.end);
  }
  return kept + text.slice(at);
}

function textAndCalls(reply: string, { calls, spans }: FoundCalls): TextToolCalls {
  if (calls.length === 0) return { text: reply, toolCalls: [] };
  return {
    text: withoutSpans(reply, spans)
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    toolCalls: calls,
  };
}

/**
 * Tool calls a model wrote in its reply instead of using the tools API: `<tool_call>` tags (Hermes, Qwen), ```json
 * fences, or bare JSON objects, several per reply. Returns them in order and the reply text with them taken out.
 */
export function parseTextToolCalls(reply: string, tools: readonly ToolSpec[]): TextToolCalls {
  return textAndCalls(reply, findTextToolCalls(reply, new Set(tools.map((tool) => tool.name))));
}

const TAG_OPEN = '<tool_call>';
const FENCE = '```';
/** a held-back candidate is looked at again once the text grew by this share (and this many characters) */
const RECHECK_GROWTH = 1.25;
const RECHECK_MIN_CHARS = 16;
/** Keys a call written as a JSON object starts with (OpenAI's shape starts with id or type). */
const CALL_KEYS = ['name', 'arguments', 'parameters', 'function', 'tool_calls', 'id', 'type'];

/**
 * Whether a tool call written as text may begin at `start` of `text` (so far): 'maybe' while it could, 'no' once it
 * cannot. A complete candidate that is a call stays 'maybe' (held back for good).
 */
function callMayStartAt(text: string, start: number, toolNames: ReadonlySet<string>): 'maybe' | 'no' {
  const held = text.slice(start);
  switch (held[0]) {
    case '<':
      return TAG_OPEN.startsWith(held.slice(0, TAG_OPEN.length)) ? 'maybe' : 'no';
    case '`': {
      if (held.length < FENCE.length) return FENCE.startsWith(held) ? 'maybe' : 'no';
      if (!held.startsWith(FENCE)) return 'no';
      const infoEnd = held.indexOf('\n', FENCE.length);
      const info = held.slice(FENCE.length, infoEnd === -1 ? undefined : infoEnd).trim();
      if (infoEnd === -1) return 'json'.startsWith(info) ? 'maybe' : 'no';
      if (info !== '' && info !== 'json') return 'no';
      const close = held.indexOf(FENCE, infoEnd);
      if (close === -1) return 'maybe';
      return findTextToolCalls(held.slice(0, close + FENCE.length), toolNames).calls.length ? 'maybe' : 'no';
    }
    case '{': {
      const key = /^\{\s*(?:"([a-z_]*)("?))?/.exec(held);
      const rest = held.slice(key?.[0].length ?? 1);
      if (!key?.[2]) {
        // the first key is not complete yet
        if (rest.length > 0) return 'no';
        const partial = key?.[1] ?? '';
        return CALL_KEYS.some((name) => name.startsWith(partial)) ? 'maybe' : 'no';
      }
      if (!CALL_KEYS.includes(key[1])) return 'no';
      const span = jsonObjectSpans(held)[0];
      if (!span || span.start !== 0) return 'maybe';
      return callsIn(parseJson(span.body), toolNames, false).length ? 'maybe' : 'no';
    }
    default:
      return 'no';
  }
}

/**
 * Streams a reply's text as it comes, except what may be a tool call written as text: that is held back until it
 * turns out not to be one, so the person never sees the raw JSON of a call.
 */
export class TextToolCallFilter {
  private raw = '';
  /** characters of `raw` passed on */
  private passed = 0;
  /** length of `raw` when a possible call was last found held back (0: nothing held) */
  private heldLength = 0;
  private readonly toolNames: ReadonlySet<string>;

  constructor(
    private readonly onDelta: ((chunk: string) => void) | undefined,
    tools: readonly ToolSpec[],
  ) {
    this.toolNames = new Set(tools.map((tool) => tool.name));
  }

  readonly push = (chunk: string): void => {
    this.raw += chunk;
    // a long call held back is looked at again only after it grew by a share, so streaming it stays linear
    if (this.heldLength > 0 && this.raw.length < this.heldLength * RECHECK_GROWTH + RECHECK_MIN_CHARS) return;
    this.heldLength = 0;
    let safe = this.passed;
    while (safe < this.raw.length) {
      const next = this.raw.slice(safe).search(/[<`{]/);
      if (next === -1) {
        safe = this.raw.length;
        break;
      }
      if (callMayStartAt(this.raw, safe + next, this.toolNames) === 'maybe') {
        safe += next;
        this.heldLength = this.raw.length;
        break;
      }
      safe += next + 1;
    }
    // trailing blanks wait for what follows: before a call they go with it, so a reply of calls only streams nothing
    while (safe > this.passed && /\s/.test(this.raw[safe - 1])) safe--;
    this.pass(safe);
  };

  /** The reply had real tool calls: what was held back is just text. */
  flush(): void {
    this.pass(this.raw.length);
  }

  /** The calls written in the final reply text; passes on the rest of the text that is not a call. */
  finish(replyText: string): TextToolCalls {
    const found = findTextToolCalls(replyText, this.toolNames);
    // a retried request streamed another text before this one: the final message event shows the right text
    if (replyText === this.raw && this.passed < this.raw.length) {
      const rest = withoutSpans(this.raw, found.spans, this.passed).trimEnd();
      if (rest.trim()) this.onDelta?.(rest);
      this.passed = this.raw.length;
    }
    return textAndCalls(replyText, found);
  }

  private pass(until: number): void {
    if (until <= this.passed) return;
    this.onDelta?.(this.raw.slice(this.passed, until));
    this.passed = until;
  }
}
