import type { ToolChoice, ToolSpec } from './types.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import type { LlmConfig } from '../../shared/settings/llm-config.js';
import type { LlmError } from './errors.js';
import { baseUrlOf } from './providers.js';

const TOOLS_UNSUPPORTED_PATTERN =
  /does not support (tools|tool|function)|(tools?|function calling|tool use|tool_choice)\W+(is |are )?(not supported|unsupported)|not support(ed)? (tool|function)|no endpoints found that support tool use|unrecognized.{0,20}\btools?\b|extra.{0,30}\btools?\b.{0,30}not permitted/i;
/** A 400 that names the tools parameter: vLLM without a tool parser ("auto" tool choice requires ...), proxies' checks. */
const NAMES_TOOLS_PATTERN = /\btools?\b|\btool[_ ]choice\b|\bfunction[_ ]call(ing|s)?\b|\bfunctions\b/i;

/** The provider refused the tools parameter (e.g. Ollama's 400 "does not support tools"). */
export function isToolsUnsupportedError(error: LlmError): boolean {
  const text = `${error.message} ${(error.cause as Error | undefined)?.message ?? ''}`;
  if (error.code === 'bad_request' && NAMES_TOOLS_PATTERN.test(text)) return true;
  return (error.code === 'bad_request' || error.code === 'not_found') && TOOLS_UNSUPPORTED_PATTERN.test(text);
}

/** Models whose provider refused the tools parameter: later requests (and turns) go straight to the text protocol. */
export class ToolRefusals {
  private readonly refused = new Set<string>();

  has(config: LlmConfig): boolean {
    return this.refused.has(refusalKey(config));
  }

  add(config: LlmConfig): void {
    this.refused.add(refusalKey(config));
  }
}

function refusalKey(config: LlmConfig): string {
  return `${config.provider} ${baseUrlOf(config)} ${config.model}`;
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
