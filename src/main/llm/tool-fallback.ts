import type { ToolChoice, ToolSpec } from './types.js';
import type { ChatMessage, ToolCall } from '../../shared/chat-message.js';
import type { LlmError } from './errors.js';

const TOOLS_UNSUPPORTED_PATTERN =
  /does not support (tools|tool|function)|(tools?|function calling|tool use|tool_choice)\W+(is |are )?(not supported|unsupported)|not support(ed)? (tool|function)|no endpoints found that support tool use|unrecognized.{0,20}\btools?\b|extra.{0,30}\btools?\b.{0,30}not permitted/i;

/** The provider said the model cannot take tools (e.g. Ollama's 400 "does not support tools"). */
export function isToolsUnsupportedError(error: LlmError): boolean {
  return (
    (error.code === 'bad_request' || error.code === 'not_found') &&
    TOOLS_UNSUPPORTED_PATTERN.test(`${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`)
  );
}

/** Instructions appended to the system prompt so a model without tool calling can still call tools. */
export function textToolsPrompt(tools: readonly ToolSpec[], toolChoice: ToolChoice): string {
  const list = tools
    .map((tool) => `- ${tool.name}: ${tool.description}\n  arguments (JSON schema): ${JSON.stringify(tool.parameters)}`)
    .join('\n');
  const must =
    toolChoice === 'required'
      ? 'You must call at least one tool in this reply.'
      : 'Call tools when they help; to answer without a tool, reply with plain text only.';
  return [
    '',
    '# Tools',
    'You can call these tools:',
    list,
    '',
    'To call tools, put exactly one JSON object of this form in your reply, in a ```json fence:',
    '```json',
    '{"tool_calls": [{"name": "<tool name>", "arguments": {<arguments matching the schema>}}]}',
    '```',
    `${must} Tool results come back in a user message starting with "Tool result".`,
  ].join('\n');
}

/** Rewrite memory for a model without tool calling: calls become JSON text, results become user messages. */
export function toTextToolMessages(
  messages: readonly ChatMessage[],
  tools: readonly ToolSpec[],
  toolChoice: ToolChoice,
): ChatMessage[] {
  const prompt = textToolsPrompt(tools, toolChoice);
  const out: ChatMessage[] = [];
  const hasSystem = messages[0]?.role === 'system';
  if (!hasSystem) out.push({ role: 'system', content: prompt.trim() });
  messages.forEach((message, position) => {
    if (position === 0 && hasSystem) {
      out.push({ ...message, content: `${message.content ?? ''}\n${prompt}` });
    } else if (message.role === 'assistant' && message.toolCalls?.length) {
      const calls = message.toolCalls.map((call) => ({ name: call.name, arguments: parseOr(call.arguments) }));
      const json = '```json\n' + JSON.stringify({ tool_calls: calls }) + '\n```';
      out.push({ role: 'assistant', content: message.content ? `${message.content}\n${json}` : json });
    } else if (message.role === 'tool') {
      const result = `Tool result of ${message.name ?? 'tool'} (call ${message.toolCallId ?? '?'}):\n${message.content ?? ''}`;
      const previous = out.at(-1);
      // consecutive results go into one user message so roles keep alternating
      if (previous?.role === 'user' && previous.content?.startsWith('Tool result')) {
        out[out.length - 1] = {
          ...previous,
          content: `${previous.content}\n\n${result}`,
          images: [...(previous.images ?? []), ...(message.images ?? [])],
        };
      } else {
        out.push({ role: 'user', content: result, images: message.images });
      }
    } else {
      out.push(message);
    }
  });
  return out;
}

function parseOr(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Every balanced {...} span in the text, string-aware, outermost first. */
function jsonObjectSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
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
    spans.push({ start, end });
    start = text.indexOf('{', end);
  }
  return spans;
}

interface LooseCall {
  name?: unknown;
  arguments?: unknown;
  parameters?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

function callsFrom(value: unknown, toolNames: ReadonlySet<string>): LooseCall[] | undefined {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'object' && item) ? value : undefined;
  if (!value || typeof value !== 'object') return undefined;
  const record = value as Record<string, unknown>;
  if (Array.isArray(record.tool_calls)) return record.tool_calls as LooseCall[];
  // a bare {"name": ..., "arguments": ...} is a call only when it names a known tool
  if (typeof record.name === 'string' && toolNames.has(record.name)) return [record as LooseCall];
  return undefined;
}

function toToolCall(call: LooseCall, position: number): ToolCall | undefined {
  const name = call.function?.name ?? call.name;
  if (typeof name !== 'string' || !name) return undefined;
  const args = call.function?.arguments ?? call.arguments ?? call.parameters ?? {};
  return {
    id: `call_text_${position}_${Math.random().toString(36).slice(2, 10)}`,
    name,
    arguments: typeof args === 'string' ? args : JSON.stringify(args),
  };
}

/**
 * Find tool calls written as JSON in a reply (in a ```json fence or bare). Returns the calls and the reply text
 * with the JSON taken out.
 */
export function parseTextToolCalls(reply: string, tools: readonly ToolSpec[]): { text: string; toolCalls: ToolCall[] } {
  const toolNames = new Set(tools.map((tool) => tool.name));
  const candidates: { start: number; end: number; body: string }[] = [];
  for (const fence of reply.matchAll(/```(?:json)?\s*\n?([\s\S]*?)```/g)) {
    candidates.push({ start: fence.index, end: fence.index + fence[0].length, body: fence[1] });
  }
  for (const span of jsonObjectSpans(reply)) {
    if (!candidates.some((fence) => span.start >= fence.start && span.end <= fence.end)) {
      candidates.push({ ...span, body: reply.slice(span.start, span.end) });
    }
  }
  for (const candidate of candidates) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate.body.trim());
    } catch {
      continue;
    }
    const calls = callsFrom(parsed, toolNames);
    if (!calls?.length) continue;
    const toolCalls = calls.flatMap((call, position) => toToolCall(call, position) ?? []);
    if (toolCalls.length === 0) continue;
    const text = (reply.slice(0, candidate.start) + reply.slice(candidate.end)).trim();
    return { text, toolCalls };
  }
  return { text: reply, toolCalls: [] };
}
